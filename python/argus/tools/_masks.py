"""Turning segmented regions (slices + boolean crops) into result dicts.

Internal module shared by counting.py and colors.py, so both report objects
with the same keys: label, score, bbox, area, centroid and (optionally) a
full-size mask that overlay_segmentation_masks accepts.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ._results import detection, reading_order

Region = Tuple[Tuple[slice, slice], np.ndarray]


def object_results(
    regions: Sequence[Region],
    label: str,
    height: int,
    width: int,
    with_masks: bool,
    extras: Optional[Sequence[Dict[str, Any]]] = None,
) -> List[Dict[str, Any]]:
    """One dict per region (plus that region's `extras`, if given), in reading order."""
    results = []
    for index, ((rows, cols), crop) in enumerate(regions):
        ys, xs = np.nonzero(crop)
        extra: Dict[str, Any] = {
            "area": int(len(xs)),
            "centroid": [round(float(xs.mean()) + cols.start, 1), round(float(ys.mean()) + rows.start, 1)],
        }
        if extras is not None:
            extra.update(extras[index])
        if with_masks:
            full = np.zeros((height, width), dtype=bool)
            full[rows, cols] = crop
            extra["mask"] = full
        box = (cols.start + xs.min(), rows.start + ys.min(), cols.start + xs.max() + 1, rows.start + ys.max() + 1)
        results.append(detection(label, 1.0, box, width, height, **extra))
    return reading_order(results)
