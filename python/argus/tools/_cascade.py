"""Haar-cascade detection with a real confidence score.

Internal module for faces.py. OpenCV's detectMultiScale only says yes or no
(after grouping neighbours). Here every raw window hit is kept, hits are
clustered into candidate objects, and each candidate gets a score in [0, 1]
from how much evidence supports it: the number of windows (positions, scales,
rotations) that fired, and for some cascades the mean strength of the last
stage. Scores then mean the same thing for every call, so one box_threshold
works across images, and the human-review flow can lower it to see
near-misses.

Three details recover objects a plain call misses:
  - the image is padded (edge pixels repeated) so a face that fills the frame
    or is cut by the border still fits a detection window;
  - optional small rotations catch tilted heads (cat faces need this);
  - the image is first shrunk so that `min_size` maps onto the cascade's
    training window, which bounds the cost on large photos.
"""

from __future__ import annotations

import math
import os
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from typing import List, Optional, Tuple

from .._cv2 import cv2
import numpy as np

from ._results import Box, inside_fraction, non_max_suppression

# A bigger box swallows a smaller one inside it only when it is at least this
# confident relative to it, so one weak large false hit cannot erase the real
# faces of a group photo.
CONTAINER_MARGIN = 0.8

CASCADE_DIRS = (
    "/usr/share/opencv4/haarcascades",
    "/usr/share/opencv/haarcascades",
    "/usr/local/share/opencv4/haarcascades",
)


@dataclass(frozen=True)
class CascadeModel:
    """A cascade file and how to run and score it."""

    file: str
    window: int                  # training window (px): the smallest object it can find
    pad: float                   # padding added on each side, as a fraction of the longer edge
    angles: Tuple[float, ...]    # rotations (degrees) to run at
    scale_factor: float          # pyramid step
    midpoint: float              # evidence at which score = 0.5
    slope: float                 # how fast the score rises with evidence
    weight_gain: float = 0.0     # how much the mean last-stage strength adds to the evidence
    weight_cap: float = 0.5      # mean strengths are clipped to [-1, cap]: one lucky window is not proof
    size_divisor: int = 40       # default smallest object: the longer image edge / this
    lock: threading.Lock = field(default_factory=threading.Lock, compare=False, repr=False)

    def score(self, hits: int, mean_weight: float) -> float:
        """Confidence in [0, 1] from the number of supporting windows and their strength."""
        evidence = math.log(hits) + self.weight_gain * min(max(mean_weight, -1.0), self.weight_cap)
        return 1.0 / (1.0 + math.exp(-self.slope * (evidence - self.midpoint)))


@dataclass
class Candidate:
    """A cluster of raw hits: its box in image pixels and its evidence."""

    box: Box
    hits: int
    mean_weight: float
    score: float = 0.0


@lru_cache(maxsize=None)
def _classifier(file: str) -> cv2.CascadeClassifier:
    directories = list(CASCADE_DIRS)
    bundled = getattr(getattr(cv2, "data", None), "haarcascades", None)
    if bundled:
        directories.insert(0, bundled)
    for directory in directories:
        path = os.path.join(directory, file)
        if os.path.isfile(path):
            classifier = cv2.CascadeClassifier(path)
            if not classifier.empty():
                return classifier
    raise RuntimeError(
        f"The OpenCV cascade {file} is not installed (looked in {', '.join(directories)}); "
        "on Debian it comes with the opencv-data package"
    )


def detect(
    gray: np.ndarray,
    model: CascadeModel,
    box_threshold: float,
    min_size: Optional[int],
    max_size: Optional[int],
) -> List[Candidate]:
    """Candidates with score >= box_threshold, duplicates and parts-of-objects removed, best first."""
    height, width = gray.shape
    smallest = max(model.window, min_size or _default_min_size(height, width, model))
    if min(height, width) * (model.window / smallest) < model.window // 2:
        return []  # the image is smaller than half a detection window: nothing can fit
    hits = _raw_hits(gray, model, smallest, max_size)
    candidates = _cluster(hits)
    for candidate in candidates:
        candidate.score = model.score(candidate.hits, candidate.mean_weight)
    candidates = [c for c in candidates if c.score >= box_threshold]
    return _suppress(candidates)


def _default_min_size(height: int, width: int, model: CascadeModel) -> int:
    """Objects smaller than 1/size_divisor of the longer edge are skipped by
    default: it bounds the work on big photos (with 40, a 4000 px photo is
    searched as ~1000 px)."""
    return max(model.window, round(max(height, width) / model.size_divisor))


def _raw_hits(gray: np.ndarray, model: CascadeModel, smallest: int, max_size: Optional[int]) -> np.ndarray:
    """(N, 4) array of raw window hits: centre x, centre y, side (image pixels), stage weight."""
    factor = model.window / smallest
    image = gray
    if factor < 1.0:
        size = (max(1, round(gray.shape[1] * factor)), max(1, round(gray.shape[0] * factor)))
        image = cv2.resize(gray, size, interpolation=cv2.INTER_AREA)
    else:
        factor = 1.0
    pad = round(model.pad * max(image.shape))
    padded = cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    largest = (max_size * factor) if max_size else max(padded.shape)
    largest_px = int(max(model.window, round(largest)))
    classifier = _classifier(model.file)
    centre = (padded.shape[1] / 2.0, padded.shape[0] / 2.0)
    rows = []
    for angle in model.angles:
        view = padded
        inverse = None
        if angle:
            matrix = cv2.getRotationMatrix2D(centre, angle, 1.0)
            view = cv2.warpAffine(
                padded, matrix, (padded.shape[1], padded.shape[0]), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
            )
            inverse = cv2.invertAffineTransform(matrix)
        # CascadeClassifier objects are not safe to share between threads.
        with model.lock:
            boxes, _, weights = classifier.detectMultiScale3(
                view,
                scaleFactor=model.scale_factor,
                minNeighbors=0,
                minSize=(model.window, model.window),
                maxSize=(largest_px, largest_px),
                outputRejectLevels=True,
            )
        if len(boxes) == 0:
            continue
        boxes = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
        centres = np.stack([boxes[:, 0] + boxes[:, 2] / 2, boxes[:, 1] + boxes[:, 3] / 2], axis=1)
        if inverse is not None:
            centres = centres @ inverse[:, :2].T + inverse[:, 2]
        rows.append(
            np.column_stack(
                [
                    (centres[:, 0] - pad) / factor,
                    (centres[:, 1] - pad) / factor,
                    boxes[:, 2] / factor,
                    np.asarray(weights, dtype=np.float64).reshape(-1),
                ]
            )
        )
    return np.concatenate(rows) if rows else np.zeros((0, 4))


def _cluster(hits: np.ndarray) -> List[Candidate]:
    """Group hits whose centres lie within half a window of a cluster's mean centre
    and whose sizes differ by less than 1.5x; biggest hits first so clusters
    form around whole objects rather than parts."""
    if len(hits) == 0:
        return []
    order = np.argsort(-hits[:, 2], kind="stable")
    sums = np.zeros((len(hits), 4))  # per cluster: sum cx, sum cy, sum side, sum weight
    counts = np.zeros(len(hits))
    used = 0
    for cx, cy, side, weight in hits[order]:
        if used:
            n = counts[:used]
            mx, my, ms = sums[:used, 0] / n, sums[:used, 1] / n, sums[:used, 2] / n
            close = (
                (np.abs(cx - mx) < 0.5 * ms)
                & (np.abs(cy - my) < 0.5 * ms)
                & (np.maximum(side, ms) < 1.5 * np.minimum(side, ms))
            )
            match = np.flatnonzero(close)
        else:
            match = ()
        index = int(match[0]) if len(match) else used
        if index == used:
            used += 1
        sums[index] += (cx, cy, side, weight)
        counts[index] += 1
    candidates = []
    for (sx, sy, ss, sw), n in zip(sums[:used], counts[:used]):
        cx, cy, side = sx / n, sy / n, ss / n
        box = (cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2)
        candidates.append(Candidate(box=box, hits=int(n), mean_weight=float(sw / n)))
    return candidates


def _suppress(candidates: List[Candidate]) -> List[Candidate]:
    """Drop candidates lying mostly inside a clearly bigger, about as confident
    kept one (a face does not contain another face; those are its nose or eyes
    firing), then overlapping duplicates (IoU > 0.3, keep the higher score)."""
    by_size = sorted(candidates, key=lambda c: -(c.box[2] - c.box[0]))
    kept: List[Candidate] = []
    for candidate in by_size:
        side = candidate.box[2] - candidate.box[0]
        if any(
            (other.box[2] - other.box[0]) >= 1.4 * side
            and other.score >= CONTAINER_MARGIN * candidate.score
            and inside_fraction(candidate.box, other.box) >= 0.6
            for other in kept
        ):
            continue
        kept.append(candidate)
    order = non_max_suppression([c.box for c in kept], [c.score for c in kept], 0.3)
    return [kept[index] for index in order]
