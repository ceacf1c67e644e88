"""Building detection dicts and removing duplicate boxes.

Internal module. Every tool returns the same shape of result so that any of
them can be passed to overlay_bounding_boxes and compared with each other:
    {"label": str, "score": float in [0, 1], "bbox": [x1, y1, x2, y2], ...}
with integer pixel corners, x2/y2 exclusive (the box covers columns x1..x2-1),
clipped to the image.
"""

from __future__ import annotations

from typing import Any, Dict, List, Sequence, Tuple

import numpy as np

Box = Tuple[float, float, float, float]


def pixel_box(box: Sequence[float], width: int, height: int) -> List[int]:
    """Integer [x1, y1, x2, y2] clipped to a width x height image, at least 1 px wide and tall."""
    x1, y1, x2, y2 = (float(value) for value in box)
    left = int(min(max(round(x1), 0), width - 1))
    top = int(min(max(round(y1), 0), height - 1))
    right = int(min(max(round(x2), left + 1), width))
    bottom = int(min(max(round(y2), top + 1), height))
    return [left, top, right, bottom]


def detection(label: str, score: float, box: Sequence[float], width: int, height: int, **extra: Any) -> Dict[str, Any]:
    """One result dict with a clipped integer box and a score rounded to 4 decimals."""
    result: Dict[str, Any] = {
        "label": label,
        "score": round(float(min(max(score, 0.0), 1.0)), 4),
        "bbox": pixel_box(box, width, height),
    }
    result.update(extra)
    return result


def iou(first: Box, second: Box) -> float:
    """Intersection over union of two (x1, y1, x2, y2) boxes."""
    inter = _intersection(first, second)
    union = _area(first) + _area(second) - inter
    return inter / union if union > 0 else 0.0


def inside_fraction(inner: Box, outer: Box) -> float:
    """Fraction of `inner`'s area that lies inside `outer`."""
    area = _area(inner)
    return _intersection(inner, outer) / area if area > 0 else 0.0


def _area(box: Box) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def _intersection(first: Box, second: Box) -> float:
    width = min(first[2], second[2]) - max(first[0], second[0])
    height = min(first[3], second[3]) - max(first[1], second[1])
    return max(0.0, width) * max(0.0, height)


def non_max_suppression(boxes: Sequence[Box], scores: Sequence[float], overlap: float) -> List[int]:
    """Indices of the boxes kept, best score first: a box is dropped when its
    IoU with an already kept box exceeds `overlap`."""
    if len(boxes) == 0:
        return []
    array = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    order = np.argsort(-np.asarray(scores, dtype=np.float64), kind="stable")
    areas = np.clip(array[:, 2] - array[:, 0], 0, None) * np.clip(array[:, 3] - array[:, 1], 0, None)
    kept: List[int] = []
    suppressed = np.zeros(len(array), dtype=bool)
    for index in order:
        if suppressed[index]:
            continue
        kept.append(int(index))
        widths = np.clip(np.minimum(array[index, 2], array[:, 2]) - np.maximum(array[index, 0], array[:, 0]), 0, None)
        heights = np.clip(np.minimum(array[index, 3], array[:, 3]) - np.maximum(array[index, 1], array[:, 1]), 0, None)
        inter = widths * heights
        union = areas[index] + areas - inter
        overlaps = np.divide(inter, union, out=np.zeros_like(inter), where=union > 0)
        suppressed |= overlaps > overlap
    return kept


def by_score(results: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """Results sorted best first, then top-to-bottom, left-to-right (stable, deterministic)."""
    return sorted(results, key=lambda item: (-item["score"], item["bbox"][1], item["bbox"][0]))


def reading_order(results: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """Results sorted top-to-bottom, then left-to-right."""
    return sorted(results, key=lambda item: (item["bbox"][1], item["bbox"][0]))
