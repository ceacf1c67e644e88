"""Checking and normalising detection lists before they are drawn.

Internal module for overlays.py. Every error names the function, the item
(e.g. detections[2]) and the key at fault, and shows the expected form.
"""

from __future__ import annotations

import math
import numbers
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from ._convert import type_name

Box = Tuple[int, int, int, int]
DETECTION_EXAMPLE = "{'label': 'cat', 'score': 0.9, 'bbox': [x1, y1, x2, y2]}"
MASK_EXAMPLE = "{'label': 'cat', 'score': 0.9, 'mask': <HxW bool array>}"


def parse_boxes(detections: Any, height: int, width: int) -> List[Tuple[Box, str, Optional[float]]]:
    """(pixel box, label, score) per detection for an image of height x width.
    Boxes are integer (x1, y1, x2, y2), x2/y2 exclusive, clipped to the image."""
    fn = "overlay_bounding_boxes"
    parsed = []
    for index, detection in enumerate(_as_dict_list(detections, fn, "detections", DETECTION_EXAMPLE)):
        where = f"detections[{index}]"
        parsed.append(
            (_pixel_box(detection, where, height, width), _label(detection, fn, where), _score(detection, fn, where))
        )
    return parsed


def parse_masks(masks: Any, height: int, width: int) -> List[Tuple[np.ndarray, str, Optional[float]]]:
    """(HxW bool mask, label, score) per item for an image of height x width."""
    fn = "overlay_segmentation_masks"
    parsed = []
    for index, item in enumerate(_as_dict_list(masks, fn, "masks", MASK_EXAMPLE)):
        where = f"masks[{index}]"
        parsed.append((_boolean_mask(item, where, height, width), _label(item, fn, where), _score(item, fn, where)))
    return parsed


def _as_dict_list(value: Any, fn: str, argument: str, example: str) -> List[Dict[str, Any]]:
    """A list of dicts from `value` (a list/tuple of dicts or a single dict)."""
    if isinstance(value, dict):
        return [value]
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"{fn}: {argument} must be a list of dicts like {example}, got {type_name(value)}")
    for index, item in enumerate(value):
        if not isinstance(item, dict):
            raise TypeError(
                f"{fn}: {argument}[{index}] must be a dict like {example}, got {type_name(item)}"
            )
    return list(value)


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _label(item: Dict[str, Any], fn: str, where: str) -> str:
    """The item's label as text ('' when absent). Integer class ids are accepted."""
    label = item.get("label")
    if label is None:
        return ""
    if isinstance(label, str):
        return label
    if isinstance(label, numbers.Integral) and not isinstance(label, bool):
        return str(int(label))
    raise TypeError(f"{fn}: {where}['label'] must be a string, got {type_name(label)}")


def _score(item: Dict[str, Any], fn: str, where: str) -> Optional[float]:
    """The item's score as a float, or None when absent."""
    score = item.get("score")
    if score is None:
        return None
    if not _is_number(score) or not math.isfinite(float(score)):
        raise TypeError(f"{fn}: {where}['score'] must be a finite number, got {score!r}")
    return float(score)


def _pixel_box(detection: Dict[str, Any], where: str, height: int, width: int) -> Tuple[int, int, int, int]:
    """Validated integer box (x1, y1, x2, y2), clipped to the image, x2/y2 exclusive."""
    fn = "overlay_bounding_boxes"
    if "bbox" not in detection:
        raise ValueError(
            f"{fn}: {where} has no 'bbox' key (keys: {sorted(map(str, detection))}); "
            f"expected {DETECTION_EXAMPLE}"
        )
    bbox = detection["bbox"]
    if isinstance(bbox, np.ndarray):
        bbox = bbox.tolist()
    if not isinstance(bbox, (list, tuple)) or len(bbox) != 4:
        size = f"length {len(bbox)}" if isinstance(bbox, (list, tuple)) else type_name(bbox)
        raise ValueError(f"{fn}: {where}['bbox'] must be [x1, y1, x2, y2] (4 numbers), got {size}: {bbox!r}")
    if not all(_is_number(value) and math.isfinite(float(value)) for value in bbox):
        raise ValueError(f"{fn}: {where}['bbox'] must hold 4 finite numbers, got {bbox!r}")
    x1, y1, x2, y2 = (float(value) for value in bbox)
    if x2 < x1 or y2 < y1:
        raise ValueError(
            f"{fn}: {where}['bbox'] {bbox!r} has x2 < x1 or y2 < y1; expected [x1, y1, x2, y2] "
            "with the bottom-right corner second (not [x, y, width, height])"
        )
    if height > 2 and width > 2 and all(0.0 <= value <= 1.0 for value in (x1, y1, x2, y2)):
        x1, x2, y1, y2 = x1 * width, x2 * width, y1 * height, y2 * height
    if x2 <= 0 or y2 <= 0 or x1 >= width or y1 >= height:
        raise ValueError(
            f"{fn}: {where}['bbox'] {bbox!r} lies entirely outside the {width}x{height} image "
            "(bbox is [x1, y1, x2, y2] in pixels of this image)"
        )
    left = min(max(int(round(x1)), 0), width - 1)
    top = min(max(int(round(y1)), 0), height - 1)
    right = min(max(int(round(x2)), left + 1), width)
    bottom = min(max(int(round(y2)), top + 1), height)
    return left, top, right, bottom


def _boolean_mask(item: Dict[str, Any], where: str, height: int, width: int) -> np.ndarray:
    """The item's mask as an HxW bool array, checked against the image size."""
    fn = "overlay_segmentation_masks"
    if "mask" not in item:
        raise ValueError(
            f"{fn}: {where} has no 'mask' key (keys: {sorted(map(str, item))}); expected {MASK_EXAMPLE}"
        )
    mask = item["mask"]
    if not isinstance(mask, np.ndarray):
        raise TypeError(f"{fn}: {where}['mask'] must be a numpy array, got {type_name(mask)}")
    if mask.ndim == 3 and mask.shape[2] == 1:
        mask = mask[:, :, 0]
    if mask.shape != (height, width):
        raise ValueError(
            f"{fn}: {where}['mask'] has shape {item['mask'].shape} but the image is "
            f"{height}x{width} (height x width); the mask must be HxW = ({height}, {width})"
        )
    if mask.dtype == bool:
        return mask.copy()
    if np.issubdtype(mask.dtype, np.integer):
        if mask.size and mask.min() < 0:
            raise ValueError(f"{fn}: {where}['mask'] has negative values; use a bool or 0/1 or 0/255 mask")
        return mask > 0
    if np.issubdtype(mask.dtype, np.floating):
        if not np.all(np.isfinite(mask)):
            raise ValueError(f"{fn}: {where}['mask'] contains NaN or infinite values")
        low, high = float(mask.min()), float(mask.max())
        if low >= 0.0 and high <= 1.0:
            return mask >= 0.5
        if low >= 0.0 and high <= 255.0:
            return mask >= 127.5
        raise ValueError(f"{fn}: {where}['mask'] float values must lie in [0, 1] or [0, 255], got {low:g}..{high:g}")
    raise ValueError(f"{fn}: {where}['mask'] has unsupported dtype {mask.dtype}; use bool")
