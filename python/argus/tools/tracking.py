"""Following objects through video frames: linking per-frame detections into
tracks, and following one given box (CSRT correlation tracker).

Public: track_objects, track_box.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence

from .._cv2 import cv2
import numpy as np

from .._convert import type_name
from ._checks import fraction, frame_list, integer, text
from ._results import detection, iou
from .motion import detect_motion

INFEASIBLE = 1e6


@dataclass
class _Track:
    track_id: int
    label: str
    box: np.ndarray                 # last observed [x1, y1, x2, y2]
    velocity: np.ndarray = field(default_factory=lambda: np.zeros(2))  # centre shift per frame
    missed: int = 0

    def predicted(self) -> np.ndarray:
        """The box moved on by its velocity for each frame since it was last seen."""
        shift = self.velocity * (self.missed + 1)
        return self.box + np.array([shift[0], shift[1], shift[0], shift[1]])


def track_objects(
    frames: Sequence[Any],
    detections: Optional[Sequence[Sequence[Dict[str, Any]]]] = None,
    max_missed: int = 3,
    min_iou: float = 0.1,
) -> List[List[Dict[str, Any]]]:
    """Give every object a track id that stays the same across video frames.

    When to use: counting distinct objects in a video ("how many cars passed"
    = number of distinct track ids), following where each one goes, measuring
    how long each stays. Run any per-frame detector yourself and pass its
    results, e.g. detections=[detect_faces(f["frame"]) for f in frames]; without
    `detections`, moving objects from detect_motion(frames) are tracked. Links
    are made by box overlap with a constant-velocity guess, so sample frames
    densely enough that an object moves less than about its own size between
    frames (raise fps in extract_frames_and_timestamps otherwise).

    Args:
        frames: list of frames (from extract_frames_and_timestamps, or images).
        detections: optional list with one list of detection dicts per frame
            ({"label", "score", "bbox": [x1, y1, x2, y2], ...}); only
            detections with the same label are linked.
        max_missed: frames an object may go undetected (occluded, missed) and
            still keep its id (default 3).
        min_iou: smallest overlap between a track's predicted box and a
            detection to link them (default 0.1); nearby boxes whose centres
            are within one box size are linked even without overlap.

    Returns:
        One list per frame, holding a copy of each detection with an added
        "track_id": int (1, 2, 3, ... in order of first appearance) and the
        label changed to "<label> <track_id>" for drawing; the original label
        is kept in "class". Distinct objects: len({d["track_id"] for f in result for d in f}).
    """
    fn = "track_objects"
    patience = integer(max_missed, fn, "max_missed", 0, 1000)
    overlap = fraction(min_iou, fn, "min_iou")
    images = frame_list(frames, fn, minimum=1)
    if detections is None:
        if len(images) < 2:
            raise ValueError(f"{fn}: tracking motion needs at least 2 frames; pass detections for a single frame")
        detections = detect_motion(images)
    per_frame = _checked_detections(detections, len(images), fn)

    tracks: List[_Track] = []
    next_id = 1
    results: List[List[Dict[str, Any]]] = []
    for found in per_frame:
        boxes = [np.asarray(d["bbox"], dtype=np.float64) for d in found]
        labels = [str(d.get("label", "")) for d in found]
        assignment = _assign(tracks, boxes, labels, overlap)
        frame_results = []
        matched_tracks = set()
        for index, item in enumerate(found):
            track_index = assignment.get(index)
            if track_index is None:
                track = _Track(track_id=next_id, label=labels[index], box=boxes[index])
                next_id += 1
                tracks.append(track)
            else:
                track = tracks[track_index]
                old_centre = (track.box[:2] + track.box[2:]) / 2
                new_centre = (boxes[index][:2] + boxes[index][2:]) / 2
                track.velocity = (new_centre - old_centre) / (track.missed + 1)
                track.box = boxes[index]
                track.missed = 0
            matched_tracks.add(track.track_id)
            copy = dict(item)
            copy["class"] = labels[index]
            copy["label"] = f"{labels[index]} {track.track_id}".strip()
            copy["track_id"] = track.track_id
            frame_results.append(copy)
        for track in tracks:
            if track.track_id not in matched_tracks:
                track.missed += 1
        tracks = [track for track in tracks if track.missed <= patience]
        results.append(frame_results)
    return results


def _checked_detections(detections: Any, count: int, fn: str) -> List[List[Dict[str, Any]]]:
    if not isinstance(detections, (list, tuple)):
        raise TypeError(f"{fn}: detections must be a list with one list of detection dicts per frame, got {type_name(detections)}")
    if len(detections) != count:
        raise ValueError(f"{fn}: detections has {len(detections)} entries but there are {count} frames; give one list per frame")
    checked = []
    for frame_index, found in enumerate(detections):
        if not isinstance(found, (list, tuple)):
            raise TypeError(f"{fn}: detections[{frame_index}] must be a list of dicts, got {type_name(found)}")
        for index, item in enumerate(found):
            box = item.get("bbox") if isinstance(item, dict) else None
            if not isinstance(box, (list, tuple, np.ndarray)) or len(box) != 4:
                raise ValueError(
                    f"{fn}: detections[{frame_index}][{index}] must be a dict with 'bbox': [x1, y1, x2, y2], got {item!r}"
                )
        checked.append(list(found))
    return checked


def _assign(tracks: List[_Track], boxes: List[np.ndarray], labels: List[str], overlap: float) -> Dict[int, int]:
    """detection index -> track index, by minimum total cost (Hungarian)."""
    if not tracks or not boxes:
        return {}
    from scipy.optimize import linear_sum_assignment  # lazy: scipy is slow to import

    cost = np.full((len(boxes), len(tracks)), INFEASIBLE)
    for i, box in enumerate(boxes):
        for j, track in enumerate(tracks):
            if track.label != labels[i]:
                continue
            guess = track.predicted()
            overlap_now = iou(tuple(box), tuple(guess))
            centre_gap = float(np.linalg.norm((box[:2] + box[2:]) / 2 - (guess[:2] + guess[2:]) / 2))
            size = max(box[2] - box[0], box[3] - box[1], guess[2] - guess[0], guess[3] - guess[1], 1.0)
            if overlap_now >= overlap or centre_gap <= size:
                cost[i, j] = (1.0 - overlap_now) + 0.5 * centre_gap / size + 0.05 * track.missed
    rows, cols = linear_sum_assignment(cost)
    return {int(i): int(j) for i, j in zip(rows, cols) if cost[i, j] < INFEASIBLE}


def track_box(
    frames: Sequence[Any], box: Sequence[float], label: str = "object", box_threshold: float = 0.3
) -> List[List[Dict[str, Any]]]:
    """Follow one object, given by its box in the first frame, through the following frames (CSRT tracker).

    When to use: following a specific object you located once (with a detector,
    by hand, or from vqa) when no detector finds it in every frame: a ball, a
    vehicle, a tool, an animal. Works for moderate motion between consecutive
    frames (sample densely, e.g. fps=5 or more); it can drift onto the
    background after long occlusions, which the score shows.

    Args:
        frames: list of frames (from extract_frames_and_timestamps, or images).
        box: [x1, y1, x2, y2] of the object in frames[0], in pixels.
        label: label of the object (default "object").
        box_threshold: minimum score in [0, 1] (default 0.3) for the object to
            count as found in a frame; the score is how much the tracked patch
            still looks like the object in the first frame (correlation).

    Returns:
        One list per frame: [{"label": str, "score": float, "bbox": [x1, y1, x2, y2]}]
        when the object is found there, [] when it is lost. frames[0] always
        holds the given box with score 1.0.
    """
    fn = "track_box"
    threshold = fraction(box_threshold, fn, "box_threshold")
    name = text(label, fn, "label")
    images = frame_list(frames, fn, minimum=1)
    height, width = images[0].shape[:2]
    start = _checked_box(box, width, height, fn)
    x1, y1, x2, y2 = start
    reference = cv2.cvtColor(images[0][y1:y2, x1:x2], cv2.COLOR_RGB2GRAY)

    tracker = cv2.TrackerCSRT_create()
    tracker.init(cv2.cvtColor(images[0], cv2.COLOR_RGB2BGR), (x1, y1, x2 - x1, y2 - y1))
    results = [[detection(name, 1.0, start, width, height)]]
    for frame in images[1:]:
        ok, (x, y, w, h) = tracker.update(cv2.cvtColor(frame, cv2.COLOR_RGB2BGR))
        if not ok or w < 1 or h < 1:
            results.append([])
            continue
        found = (x, y, x + w, y + h)
        score = _similarity(reference, frame, found)
        results.append([detection(name, score, found, width, height)] if score >= threshold else [])
    return results


def _checked_box(box: Any, width: int, height: int, fn: str) -> tuple:
    if isinstance(box, np.ndarray):
        box = box.tolist()
    if not isinstance(box, (list, tuple)) or len(box) != 4 or not all(
        isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in box
    ):
        raise TypeError(f"{fn}: box must be [x1, y1, x2, y2] (4 numbers, pixels of frames[0]), got {box!r}")
    x1, y1, x2, y2 = (int(round(v)) for v in box)
    x1, y1, x2, y2 = max(0, x1), max(0, y1), min(width, x2), min(height, y2)
    if x2 - x1 < 4 or y2 - y1 < 4:
        raise ValueError(
            f"{fn}: box {list(box)} covers less than 4x4 pixels of the {width}x{height} frame; "
            "give [x1, y1, x2, y2] in pixels (x2 > x1, y2 > y1)"
        )
    return x1, y1, x2, y2


def _similarity(reference: np.ndarray, frame: np.ndarray, box: tuple) -> float:
    """How much the tracked box still looks like the first frame's patch: the best
    normalised correlation (clipped to 0-1) of the reference within the box
    enlarged by 15% on each side, so a box that is off by a pixel or two
    (trackers jitter) still scores as a match."""
    height, width = frame.shape[:2]
    box_width, box_height = box[2] - box[0], box[3] - box[1]
    if box_width < 2 or box_height < 2:
        return 0.0
    margin_x, margin_y = 0.15 * box_width, 0.15 * box_height
    x1, y1 = max(0, int(round(box[0] - margin_x))), max(0, int(round(box[1] - margin_y)))
    x2, y2 = min(width, int(round(box[2] + margin_x))), min(height, int(round(box[3] + margin_y)))
    # Bring the search area to the reference's scale.
    scale_x, scale_y = reference.shape[1] / box_width, reference.shape[0] / box_height
    size = (max(reference.shape[1], round((x2 - x1) * scale_x)), max(reference.shape[0], round((y2 - y1) * scale_y)))
    area = cv2.resize(cv2.cvtColor(frame[y1:y2, x1:x2], cv2.COLOR_RGB2GRAY), size, interpolation=cv2.INTER_AREA)
    if float(reference.std()) < 1.0:
        # A flat patch has no correlation to measure; compare brightness instead.
        centre = area[area.shape[0] // 2, area.shape[1] // 2]
        return float(max(0.0, 1.0 - abs(float(reference.mean()) - float(centre)) / 64.0))
    scores = np.nan_to_num(cv2.matchTemplate(area, reference, cv2.TM_CCOEFF_NORMED), nan=0.0)
    return max(0.0, min(1.0, float(scores.max())))
