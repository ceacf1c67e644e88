"""Colour tools: segmenting regions of a named colour or HSV range, and finding dominant colours.

Public: segment_color, dominant_colors.
"""

from __future__ import annotations

import numbers
from typing import Any, Dict, List, Optional, Sequence

from .._cv2 import cv2
import numpy as np

from .._convert import type_name
from ..images import ImageLike
from . import _color_names
from ._checks import image_rgb, integer, optional_integer
from ._masks import object_results
from .counting import MASK_BUDGET_BYTES

RELATIVE_MIN_AREA = 0.08  # default: regions below this share of the largest one are specks
MAX_SAMPLES = 100_000  # pixels used by k-means: plenty for fractions to ~0.5 %


def segment_color(
    image: ImageLike,
    color: Optional[str] = None,
    hsv_range: Optional[Sequence[Sequence[int]]] = None,
    min_area: Optional[int] = None,
    label: Optional[str] = None,
    masks: bool = True,
) -> List[Dict[str, Any]]:
    """Find the regions of an image that have a given colour (by name or HSV range).

    When to use: "how many red cars / blue squares / yellow pills", "what
    fraction of the field is green", locating coloured markers, lights, labels.
    Each connected patch of the colour is one region; patches of the same
    colour that touch are reported as one region. Shadows and glare change a
    colour's saturation and brightness; for the chromatic names (red, orange,
    yellow, green, cyan, blue, purple, magenta) each region is judged by the
    median colour of the whole object it lies on, so the shaded or dark rim of
    an orange or brown object is not "red". Check the result with
    view_image(overlay_segmentation_masks(image, regions)) and adjust
    hsv_range if needed.

    Args:
        image: a file path, RGB numpy array, PIL image or video frame dict.
        color: a colour name: red, orange, yellow, green, cyan, blue, purple,
            magenta, pink, brown, white, gray, black (also grey, violet, aqua,
            turquoise, gold, silver, navy, lime, crimson, fuchsia, tan).
        hsv_range: instead of a name, ((h_low, s_low, v_low), (h_high, s_high, v_high))
            in OpenCV's HSV scale: hue 0-179 (degrees / 2), saturation and
            value 0-255. If h_low > h_high the hue wraps around (e.g. red:
            ((170, 70, 50), (10, 255, 255))).
        min_area: smallest region in pixels. Default: 0.01% of the image (at
            least 16 px) and 8% of the largest region found, which drops
            shadow specks and reflections beside real objects. Pass a number
            to turn that off: lower (e.g. 20) to count tiny things next to big
            ones, raise it to ignore more clutter.
        label: label for the regions (default: the colour name, or "color region").
        masks: include each region's HxW boolean mask (default True).

    Returns:
        A list of dicts in reading order (top to bottom, left to right):
        {"label": str, "score": 1.0, "bbox": [x1, y1, x2, y2] (pixels),
         "area": int (pixels), "centroid": [x, y], "color": [r, g, b] (mean colour),
         "mask": HxW bool array (only when masks=True)}.
        The number of regions is len(result); total coverage is
        sum(r["area"] for r in result) / (height * width).
    """
    fn = "segment_color"
    ranges, default_label = _ranges(color, hsv_range, fn)
    smallest = optional_integer(min_area, fn, "min_area", 1)
    if label is not None and not isinstance(label, str):
        raise TypeError(f"{fn}: label must be a string or None, got {type_name(label)}")
    if not isinstance(masks, (bool, np.bool_)):
        raise TypeError(f"{fn}: masks must be True or False, got {masks!r}")
    pixels = image_rgb(image, fn)
    height, width = pixels.shape[:2]
    if smallest is None:
        smallest = max(16, round(height * width * 1e-4))

    hsv = cv2.cvtColor(pixels, cv2.COLOR_RGB2HSV)
    matched = _color_names.in_ranges(hsv, ranges).astype(np.uint8)
    # Opening removes isolated noisy pixels; closing mends anti-aliased or JPEG-speckled edges.
    kernel = np.ones((3, 3), np.uint8)
    matched = cv2.morphologyEx(cv2.morphologyEx(matched, cv2.MORPH_OPEN, kernel), cv2.MORPH_CLOSE, kernel)
    key = (color or "").strip().lower()
    key = _color_names.ALIASES.get(key, key)
    if hsv_range is None and key in _color_names.CHROMATIC:
        matched = _whole_objects(hsv, matched, ranges)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(matched, connectivity=8)
    areas = stats[1:, cv2.CC_STAT_AREA] if count > 1 else np.zeros(0, int)
    if min_area is None and len(areas):
        # Specks (shadows, reflections, JPEG fringes) are far smaller than the
        # objects beside them: by default a region must be >= 8% of the largest.
        smallest = max(smallest, int(RELATIVE_MIN_AREA * int(areas.max())))
    keep = [index for index in range(1, count) if stats[index, cv2.CC_STAT_AREA] >= smallest]
    if masks and len(keep) * height * width > MASK_BUDGET_BYTES:
        raise ValueError(
            f"{fn}: found {len(keep)} regions; their {width}x{height} masks would need "
            f"{len(keep) * height * width / 1024**3:.1f} GiB. Call again with masks=False, "
            "raise min_area, or crop the image."
        )
    regions = []
    colors = []  # mean RGB of each region
    for index in keep:
        x, y, w, h = stats[index, :4]
        where = (slice(y, y + h), slice(x, x + w))
        crop = labels[where] == index
        regions.append((where, crop))
        colors.append([int(round(v)) for v in pixels[where][crop].mean(axis=0)])
    extras = [{"color": rgb} for rgb in colors]
    results = object_results(regions, label or default_label, height, width, bool(masks), extras)
    return results


def _whole_objects(hsv: np.ndarray, matched: np.ndarray, ranges: list) -> np.ndarray:
    """`matched` reduced to the objects whose own colour is the one asked for.

    An object is a connected patch of clearly coloured pixels (any hue). Its
    colour is the median hue, saturation and value of all its pixels; its
    matched pixels are kept (and joined into one region) only when that median
    colour is in `ranges`. So a shaded, reddish side of an orange sweet is not
    a red region, and an orange sweet with a red-orange half is one orange
    region, not two."""
    colourful = ((hsv[:, :, 1] >= 70) & (hsv[:, :, 2] >= 90)).astype(np.uint8)
    kernel = np.ones((3, 3), np.uint8)
    colourful = cv2.morphologyEx(colourful, cv2.MORPH_OPEN, kernel) | matched
    count, objects = cv2.connectedComponents(colourful, connectivity=8)
    touched = np.unique(objects[matched > 0])
    result = np.zeros_like(matched)
    for label in touched:
        if label == 0:
            continue
        inside = objects == label
        hue = hsv[:, :, 0][inside].astype(np.int32)
        # Hue is circular: take the median on whichever side of red the hues lie.
        shifted = np.where(hue >= 90, hue - 180, hue)
        median_hue = float(np.median(shifted if np.ptp(shifted) < np.ptp(hue) else hue)) % 180
        median = np.array([[[round(median_hue) % 180, np.median(hsv[:, :, 1][inside]), np.median(hsv[:, :, 2][inside])]]], np.uint8)
        if _color_names.in_ranges(median, ranges)[0, 0]:
            piece = (inside & (matched > 0)).astype(np.uint8)
            # One object, one region: bridge the gaps between its matched parts.
            result |= cv2.morphologyEx(piece, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8)) & inside.astype(np.uint8)
    return result


def _ranges(color: Any, hsv_range: Any, fn: str) -> tuple:
    """(list of HSV ranges, default label) from exactly one of color / hsv_range."""
    if (color is None) == (hsv_range is None):
        raise ValueError(
            f"{fn}: give exactly one of color (a name such as 'red') or hsv_range "
            "(((h_low, s_low, v_low), (h_high, s_high, v_high)) with hue 0-179)"
        )
    if color is not None:
        if not isinstance(color, str):
            raise TypeError(
                f"{fn}: color must be a colour name (str) such as 'red', got {type_name(color)} {color!r}; "
                "use hsv_range=((h, s, v), (h, s, v)) for numeric ranges"
            )
        try:
            return _color_names.ranges_for(color), color.strip().lower()
        except KeyError:
            raise ValueError(
                f"{fn}: unknown colour name {color!r}; known names: {', '.join(_color_names.known_names())}. "
                "For other colours pass hsv_range."
            ) from None
    return [_checked_range(hsv_range, fn)], "color region"


def _checked_range(value: Any, fn: str) -> tuple:
    shape_error = (
        f"{fn}: hsv_range must be ((h_low, s_low, v_low), (h_high, s_high, v_high)) with hue 0-179 "
        f"and saturation/value 0-255, got {value!r}"
    )
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise TypeError(shape_error)
    corners = []
    for corner in value:
        if isinstance(corner, np.ndarray):
            corner = corner.tolist()
        if not isinstance(corner, (list, tuple)) or len(corner) != 3:
            raise TypeError(shape_error)
        if not all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in corner):
            raise TypeError(shape_error)
        corners.append(tuple(int(round(v)) for v in corner))
    (h_low, s_low, v_low), (h_high, s_high, v_high) = corners
    if not (0 <= h_low <= 179 and 0 <= h_high <= 179):
        raise ValueError(
            f"{fn}: hsv_range hue values must lie in 0-179 (OpenCV uses degrees / 2), got {h_low} and {h_high}"
        )
    for name, low, high in (("saturation", s_low, s_high), ("value", v_low, v_high)):
        if not (0 <= low <= 255 and 0 <= high <= 255) or low > high:
            raise ValueError(f"{fn}: hsv_range {name} must satisfy 0 <= low <= high <= 255, got {low}..{high}")
    return tuple(corners)


def dominant_colors(image: ImageLike, k: int = 5, mask: Optional[np.ndarray] = None) -> List[Dict[str, Any]]:
    """The main colours of an image (or of a masked part of it), with how much area each covers.

    When to use: "what colour is the car / shirt / wall", describing a palette,
    checking whether a product is mostly one colour. To ask about one object,
    pass its mask (from count_objects or segment_color) or crop its bbox first.

    Args:
        image: a file path, RGB numpy array, PIL image or video frame dict.
        k: number of colour clusters to find (1-16, default 5). Clusters
            that end up almost identical are merged, so fewer may be returned.
        mask: optional HxW boolean array; only pixels where it is True count.

    Returns:
        A list of {"color": [r, g, b], "hex": "#rrggbb", "name": str (nearest
        basic colour name, e.g. "dark green"), "fraction": float (share of the
        pixels, 0-1)}, largest fraction first; fractions sum to 1.
    """
    fn = "dominant_colors"
    clusters = integer(k, fn, "k", 1, 16)
    pixels = image_rgb(image, fn)
    height, width = pixels.shape[:2]
    selected = pixels.reshape(-1, 3)
    if mask is not None:
        if not isinstance(mask, np.ndarray):
            raise TypeError(f"{fn}: mask must be a numpy array (HxW bool) or None, got {type_name(mask)}")
        if mask.shape[:2] != (height, width) or mask.ndim not in (2, 3):
            raise ValueError(f"{fn}: mask has shape {mask.shape} but the image is {height}x{width}; they must match")
        flat = (mask.reshape(height, width, -1)[:, :, 0] != 0).reshape(-1)
        if not flat.any():
            raise ValueError(f"{fn}: mask selects no pixels")
        selected = selected[flat]
    # A fixed-stride sample keeps the result deterministic and the cost bounded.
    stride = max(1, len(selected) // MAX_SAMPLES)
    sample = selected[::stride]
    clusters = min(clusters, len(np.unique(sample, axis=0)))
    if clusters <= 1:
        groups = [sample]  # one colour (or one pixel): nothing to cluster
    else:
        lab = cv2.cvtColor(sample.reshape(-1, 1, 3), cv2.COLOR_RGB2LAB).reshape(-1, 3).astype(np.float32)
        cv2.setRNGSeed(12345)  # k-means++ seeding is random; results must not change between runs
        criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 50, 0.5)
        _, assignment, _ = cv2.kmeans(lab, clusters, None, criteria, 3, cv2.KMEANS_PP_CENTERS)
        assignment = assignment.reshape(-1)
        groups = [sample[assignment == index] for index in range(clusters)]
        groups = _merge_similar([g for g in groups if len(g)])
    total = sum(len(group) for group in groups)
    results = []
    for group in groups:
        rgb = [int(v) for v in np.rint(np.median(group, axis=0))]
        results.append(
            {
                "color": rgb,
                "hex": "#{:02x}{:02x}{:02x}".format(*rgb),
                "name": _color_names.name_of(tuple(rgb)),
                "fraction": round(len(group) / total, 4),
            }
        )
    return sorted(results, key=lambda item: -item["fraction"])


def _merge_similar(groups: List[np.ndarray], distance: float = 10.0) -> List[np.ndarray]:
    """Merge clusters whose median colours are closer than `distance` in Lab
    (k-means splits a big flat area into near-identical halves)."""
    merged = list(groups)
    while len(merged) > 1:
        medians = [np.median(group, axis=0).astype(np.uint8) for group in merged]
        lab = cv2.cvtColor(np.array([medians], dtype=np.uint8), cv2.COLOR_RGB2LAB)[0].astype(np.float32)
        best = None
        for i in range(len(merged)):
            for j in range(i + 1, len(merged)):
                gap = float(np.linalg.norm(lab[i] - lab[j]))
                if gap < distance and (best is None or gap < best[0]):
                    best = (gap, i, j)
        if best is None:
            break
        _, i, j = best
        merged[i] = np.concatenate([merged[i], merged[j]])
        del merged[j]
    return merged
