"""Finding what moves in a sequence of video frames (background subtraction, no model needed).

Public: detect_motion.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

from .._cv2 import cv2
import numpy as np

from ._checks import frame_list, number, optional_integer
from ._results import detection, reading_order

# The background is the per-pixel median of at most this many frames (memory and time bound).
MEDIAN_FRAMES = 25


def detect_motion(
    frames: Sequence[Any], threshold: float = 25.0, min_area: Optional[int] = None
) -> List[List[Dict[str, Any]]]:
    """Find the moving objects in each video frame, against the static background.

    When to use: counting or locating things that move (cars, people, animals,
    parts on a conveyor) in a fixed-camera video, detecting whether anything
    happened, or as input to track_objects. The camera must not move or zoom.
    With 3 or more frames the background is the per-pixel median of the
    frames, so objects that stand still for most of the video count as
    background. With exactly 2 frames, regions that changed between them are
    reported (a moved object appears at both its old and new place).

    Args:
        frames: a list of frames: the result of
            extract_frames_and_timestamps(path, fps=...) or a list of images.
        threshold: change of any colour channel (0-255) that counts as motion (default 25);
            raise it for noisy or flickering video, lower it for low contrast.
        min_area: smallest moving region in pixels (default: 0.05% of the frame,
            at least 25 px); raise it to ignore leaves and noise.

    Returns:
        One list per frame (same order as `frames`), each holding
        {"label": "moving object", "score": float (0-1: mean change inside the
        region / 100, capped at 1), "bbox": [x1, y1, x2, y2], "area": int
        (moving pixels), "centroid": [x, y]} in reading order.
        Example: counts = [len(f) for f in detect_motion(frames)].
    """
    fn = "detect_motion"
    level = number(threshold, fn, "threshold", 1, 255)
    smallest = optional_integer(min_area, fn, "min_area", 1)
    images = frame_list(frames, fn, minimum=2)
    height, width = images[0].shape[:2]
    if smallest is None:
        smallest = max(25, round(height * width * 5e-4))

    # Colour, not just brightness: a red car on a grey road of the same
    # luminance must still count as a change. Each frame is compared channel
    # by channel and the largest difference wins.
    smoothed = [cv2.GaussianBlur(frame, (5, 5), 0) for frame in images]
    if len(smoothed) >= 3:
        step = max(1, len(smoothed) // MEDIAN_FRAMES)
        background = np.median(np.stack(smoothed[::step]), axis=0).astype(np.uint8)
        references = [background] * len(smoothed)
    else:
        references = [smoothed[1], smoothed[0]]
    # Closing mends holes where an object happens to match the background's
    # shade, so one object stays one region; opening drops pixel noise.
    close = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9))
    open_ = np.ones((3, 3), np.uint8)
    results = []
    for frame, reference in zip(smoothed, references):
        change = cv2.absdiff(frame, reference).max(axis=2)
        moving = (change > level).astype(np.uint8)
        moving = cv2.morphologyEx(cv2.morphologyEx(moving, cv2.MORPH_OPEN, open_), cv2.MORPH_CLOSE, close)
        count, labels, stats, centroids = cv2.connectedComponentsWithStats(moving, connectivity=8)
        found = []
        for index in range(1, count):
            x, y, w, h, area = stats[index]
            if area < smallest:
                continue
            inside = labels[y : y + h, x : x + w] == index
            strength = float(change[y : y + h, x : x + w][inside].mean()) / 100.0
            found.append(
                detection(
                    "moving object", min(1.0, strength), (x, y, x + w, y + h), width, height,
                    area=int(area), centroid=[round(float(centroids[index][0]), 1), round(float(centroids[index][1]), 1)],
                )
            )
        results.append(reading_order(found))
    return results
