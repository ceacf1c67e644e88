"""Pedestrian detection with OpenCV's HOG + linear SVM people detector (no model weights needed).

Public: detect_people.
"""

from __future__ import annotations

import math
import threading
from typing import Any, Dict, List, Optional

from .._cv2 import cv2
import numpy as np

from ..images import ImageLike
from . import neural
from ._checks import fraction, image_rgb, optional_integer
from ._results import detection, inside_fraction, non_max_suppression

WINDOW_HEIGHT = 128   # the detector's window is 64x128 px; a person fills ~100 px of its height
FACE_THRESHOLD = 0.5  # frontal and profile faces that anchor a person (see faces.py's calibration)
WORK_EDGE = 1280      # larger images are shrunk to this longer edge by default (cost bound)
# A person's outline stands out from what is around them: the edge energy inside
# a whole-body box is well above that of a ring around it. Where it is not, the
# box is texture (a circuit board, a patterned shirt, a crowd of hands) that HOG
# mistook for a body. Chosen from the real-photo set (python/tests/real_photos.py):
# HOG false hits there measured 0.85-1.07, people 1.3-2.2.
MIN_SURROUND_CONTRAST = 1.2

_hog_lock = threading.Lock()
_hog: Optional[cv2.HOGDescriptor] = None


def _detector() -> cv2.HOGDescriptor:
    global _hog
    if _hog is None:
        hog = cv2.HOGDescriptor()
        hog.setSVMDetector(cv2.HOGDescriptor_getDefaultPeopleDetector())
        _hog = hog
    return _hog


def _score(margin: float, hits: int) -> float:
    """Confidence in [0, 1] from the best SVM margin and the number of windows
    that agree. Calibrated on drawn silhouettes (evidence 0.7-1.3) against
    people-free scikit-image photos (mostly below 0.5): 0.6 scores 0.5."""
    evidence = margin + 0.15 * math.log(hits)
    return 1.0 / (1.0 + math.exp(-5.0 * (evidence - 0.6)))


def detect_people(
    image: ImageLike, box_threshold: float = 0.5, min_height: Optional[int] = None, method: str = "auto"
) -> List[Dict[str, Any]]:
    """Find people (by default a neural person detector on the Argus server;
    classically, HOG whole bodies plus people anchored on their face).

    When to use: counting pedestrians in street or surveillance scenes, finding
    where people stand, people in portraits, sports and office photos. Whole
    upright bodies are found by their outline; half-length portraits, people
    cut by the frame or sitting are found from their face (frontal or turned
    sideways), the box then drawn ~3 face widths wide and down to where the
    body would end. Someone neither upright nor showing a face (seen from
    behind, lying, crowds) is missed. Expect some false hits on poles and
    tree trunks; check doubtful ones with vqa on a crop.

    Args:
        image: a file path, RGB numpy array, PIL image or video frame dict.
        box_threshold: minimum score in [0, 1] (default 0.5); lower it (e.g.
            0.2) to see weaker candidates (more false hits on poles and
            textures), raise it (0.8) in busy scenes to keep only sure people.
        min_height: smallest person height in pixels to look for. Default:
            images are searched at up to 1280 px on the longer edge, so people
            shorter than ~100 px (in that size) are missed; pass e.g.
            min_height=50 to find small people (the image is enlarged, slower).
        method: "auto" (default): "neural" when an Argus server is reachable
            (in an Argus kernel, or ARGUS_URL set), else "classical" with a
            note on stderr. "neural": a person detector on the server, which
            finds sitting, turned, crowded and cut-off people too (4/6 people
            counts on real photos vs 0/6 for HOG); min_height then drops
            shorter boxes. "classical": HOG and faces in the kernel (what the
            text above describes; box_threshold 0.5 is its calibration).

    Returns:
        A list of {"label": "person", "score": float, "bbox": [x1, y1, x2, y2]}
        (pixels, x2/y2 exclusive; boxes include a small margin around the
        body), best score first. Empty list when nobody is found.
    """
    fn = "detect_people"
    threshold = fraction(box_threshold, fn, "box_threshold")
    smallest = optional_integer(min_height, fn, "min_height", 8)
    return neural.by_method(method, fn, lambda: neural.people(image, threshold, smallest),
                            lambda: _classical(image, threshold, smallest))


def _classical(image: ImageLike, threshold: float, smallest: Optional[int]) -> List[Dict[str, Any]]:
    fn = "detect_people"
    pixels = image_rgb(image, fn)
    height, width = pixels.shape[:2]

    if smallest is not None:
        factor = (WINDOW_HEIGHT * 0.8) / smallest
    else:
        factor = min(1.0, WORK_EDGE / max(height, width))
    # Never work on more than ~16 MP: enlarging a big image for tiny people would hang the kernel.
    factor = min(factor, math.sqrt(16e6 / (height * width)))
    work = pixels if factor == 1.0 else cv2.resize(
        pixels, (max(1, round(width * factor)), max(1, round(height * factor))),
        interpolation=cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR,
    )
    # No edge padding here (unlike the face cascades): repeated edge pixels form
    # vertical stripes that HOG takes for legs.
    anchored = _face_anchored(pixels)
    if work.shape[0] < WINDOW_HEIGHT or work.shape[1] < WINDOW_HEIGHT // 2:
        return _with_faces([], anchored, threshold, width, height)
    with _hog_lock:  # the descriptor holds scratch buffers; one caller at a time
        boxes, weights = _detector().detectMultiScale(
            work, hitThreshold=-0.3, winStride=(8, 8), padding=(16, 16), scale=1.05, groupThreshold=0
        )
    if len(boxes) == 0:
        return _with_faces([], anchored, threshold, width, height)
    boxes = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    margins = np.asarray(weights, dtype=np.float64).reshape(-1)
    corners = np.column_stack([boxes[:, 0], boxes[:, 1], boxes[:, 0] + boxes[:, 2], boxes[:, 1] + boxes[:, 3]])
    corners = corners / factor

    edges = _edge_energy(pixels)
    scored = []
    for index in non_max_suppression(corners, margins, 0.4):
        box = tuple(corners[index])
        if _surround_contrast(edges, box) < MIN_SURROUND_CONTRAST:
            continue
        agreeing = _overlapping(corners, corners[index], 0.4)
        scored.append((_score(float(margins[index]), int(agreeing.sum())), box))
    scored.sort(key=lambda item: -item[0])
    kept: List[tuple] = []
    for score, box in scored:
        # A much taller box around a more confident person is that person plus background.
        if any(
            (box[3] - box[1]) >= 1.4 * (other[3] - other[1]) and inside_fraction(other, box) >= 0.6
            for _, other in kept
        ):
            continue
        kept.append((score, box))
    return _with_faces(kept, anchored, threshold, width, height)


def _edge_energy(pixels: np.ndarray) -> np.ndarray:
    """Gradient magnitude of the grey image, as an integral image (sums over boxes in O(1))."""
    grey = cv2.cvtColor(pixels, cv2.COLOR_RGB2GRAY).astype(np.float32)
    magnitude = cv2.magnitude(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1))
    return cv2.integral(magnitude, sdepth=cv2.CV_64F)


def _surround_contrast(integral: np.ndarray, box: tuple) -> float:
    """Mean edge energy inside `box` over the mean in a ring around it (half
    the box width to each side, a quarter of its height above and below,
    clipped to the image). Infinite when the ring is too small to judge (the
    box fills the picture): then nothing says it is texture."""
    height, width = integral.shape[0] - 1, integral.shape[1] - 1

    def total(x1: float, y1: float, x2: float, y2: float) -> tuple:
        a, b = int(np.clip(round(x1), 0, width)), int(np.clip(round(y1), 0, height))
        c, d = int(np.clip(round(x2), 0, width)), int(np.clip(round(y2), 0, height))
        return integral[d, c] - integral[b, c] - integral[d, a] + integral[b, a], max(0, c - a) * max(0, d - b)

    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    inner, inner_area = total(x1, y1, x2, y2)
    outer, outer_area = total(x1 - w / 2, y1 - h / 4, x2 + w / 2, y2 + h / 4)
    ring, ring_area = outer - inner, outer_area - inner_area
    if inner_area == 0 or ring_area < 0.2 * inner_area:
        return math.inf
    return (inner / inner_area) / max(ring / ring_area, 1e-6)


def _face_anchored(pixels: np.ndarray) -> List[tuple]:
    """(score, person box, face box) for every frontal or profile face: a
    person whose feet (or legs, or whole lower body) are out of frame is
    found from the face. The body is drawn ~3.2 face widths wide and ~7.5
    face heights tall from the top of the head, clipped to the image."""
    from ._cascade import detect
    from .faces import FACE, PROFILE

    grey = cv2.cvtColor(pixels, cv2.COLOR_RGB2GRAY)
    height, width = grey.shape
    faces = [(c.score, tuple(c.box)) for c in detect(grey, FACE, FACE_THRESHOLD, None, None)]
    # The profile cascade knows faces turned one way; the mirror image finds the other way.
    for mirrored in (False, True):
        view = grey[:, ::-1].copy() if mirrored else grey
        for c in detect(view, PROFILE, FACE_THRESHOLD, None, None):
            x1, y1, x2, y2 = c.box
            box = (width - x2, y1, width - x1, y2) if mirrored else (x1, y1, x2, y2)
            faces.append((c.score, tuple(box)))
    faces.sort(key=lambda item: -item[0])
    kept: List[tuple] = []
    for score, face in faces:
        if any(inside_fraction(face, other) >= 0.5 or inside_fraction(other, face) >= 0.5 for _, _, other in kept):
            continue
        x1, y1, x2, y2 = face
        size = x2 - x1
        centre = (x1 + x2) / 2
        body = (max(0.0, centre - 1.6 * size), max(0.0, y1 - 0.5 * size),
                min(float(width), centre + 1.6 * size), min(float(height), y1 + 7.5 * size))
        kept.append((score, body, face))
    return kept


def _with_faces(kept: List[tuple], anchored: List[tuple], threshold: float, width: int, height: int) -> List[Dict[str, Any]]:
    """Whole-body boxes plus people found only by their face. A face inside a
    body box is that person; a body box inside a face-anchored person (an arm,
    a shirt) is dropped."""
    people = list(kept)
    for score, body, face in anchored:
        if any(inside_fraction(face, box) >= 0.7 for _, box in kept):
            continue
        people = [(s, b) for s, b in people if inside_fraction(b, body) < 0.7 or s > score]
        people.append((score, body))
    people.sort(key=lambda item: -item[0])
    return [detection("person", score, box, width, height) for score, box in people if score >= threshold]


def _overlapping(boxes: np.ndarray, box: np.ndarray, overlap: float) -> np.ndarray:
    """Which of `boxes` overlap `box` with IoU > overlap (including itself)."""
    widths = np.clip(np.minimum(box[2], boxes[:, 2]) - np.maximum(box[0], boxes[:, 0]), 0, None)
    heights = np.clip(np.minimum(box[3], boxes[:, 3]) - np.maximum(box[1], boxes[:, 1]), 0, None)
    inter = widths * heights
    areas = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    union = areas + (box[2] - box[0]) * (box[3] - box[1]) - inter
    return inter / np.maximum(union, 1e-9) > overlap
