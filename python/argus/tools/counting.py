"""Counting and segmenting distinct objects against a plain background (no model needed).

Public: count_objects.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from .._cv2 import cv2
import numpy as np

from ..images import ImageLike
from . import _segment
from ._checks import choice, gray, image_rgb, number, optional_integer, text
from ._masks import object_results

MASK_BUDGET_BYTES = 512 * 1024**2
BACKGROUND_LEVEL = 64  # grey level the background is moved to before thresholding
RELATIVE_MIN_AREA = 0.05  # default: objects under 5% of the largest one's area are specks or shadows  # per call; beyond this the caller must opt out of masks


def count_objects(
    image: ImageLike,
    label: str = "object",
    polarity: str = "auto",
    threshold: Optional[float] = None,
    min_area: Optional[int] = None,
    max_area: Optional[int] = None,
    split_touching: bool = True,
    masks: bool = True,
) -> List[Dict[str, Any]]:
    """Find and count separate objects that stand out from a plain background,
    splitting objects that touch (threshold + connected components + watershed).

    When to use: counting coins, pills, cells, seeds, nuts, screws, colonies,
    tablets on a table/tray/slide, and measuring each one's area and position.
    Works when objects are clearly lighter or darker than a fairly uniform
    background (uneven lighting and vignetting are corrected). Touching
    round-ish objects are cut apart at their necks (a cut that would leave a
    piece over 3x longer than wide is undone: propellers, bones, pencils);
    set split_touching=False for irregular shapes (letters, tools, leaves)
    that must not be cut. For objects on a busy
    background use a detector or segment_color instead. The count is len(result).

    Args:
        image: a file path, RGB numpy array, PIL image or video frame dict.
        label: the label given to every object (e.g. "coin"); shown by overlays.
        polarity: "bright" (objects lighter than the background), "dark"
            (darker) or "auto" (default). Auto fits a smooth background
            surface (it follows vignetting and light fall-off; the widest
            connected region is the background, so a dark frame around a
            light box does not flip it), then counts objects on whichever
            side(s) of it they lie: with both dark and light objects (a dark
            lid and a white ball on a grey desk) both count, by colour
            distance, with shadows left out. Regions reaching three image
            edges (frames, vignettes) are dropped in auto. Set "bright" or
            "dark" when the objects are all on one side and auto mixes in
            background clutter.
        threshold: grey level 0-255 separating objects from background; None
            (default) chooses it automatically (Otsu, after removing uneven
            lighting). Set it when the automatic choice misses faint objects.
        min_area: smallest object area in pixels. Default: 0.001% of the
            image (at least 9 px) and 5% of the largest object, which drops
            shadows and specks beside real objects. Pass a number to turn the
            relative part off: lower (e.g. 9) to count tiny things next to
            big ones, raise it to ignore dust and noise.
        max_area: largest object area in pixels (default: no limit).
        split_touching: cut touching objects apart (default True).
        masks: include each object's HxW boolean mask (default True). Set
            False for images with hundreds of objects: masks then need too
            much memory (the call raises a ValueError saying so).

    Returns:
        A list of dicts, one per object, in reading order (top to bottom, left to right):
        {"label": str, "score": 1.0, "bbox": [x1, y1, x2, y2] (pixels),
         "area": int (pixels), "centroid": [x, y] (pixels),
         "mask": HxW bool numpy array (only when masks=True)}.
        Score is always 1.0 (thresholding has no confidence); use area to filter.

    Example:
        coins = count_objects("coins.png", label="coin")
        print(len(coins), "coins; areas:", [c["area"] for c in coins])
        view_image(overlay_segmentation_masks("coins.png", coins))
    """
    fn = "count_objects"
    name = text(label, fn, "label")
    mode = choice(polarity, fn, "polarity", ("auto", "bright", "dark"))
    level = None if threshold is None else number(threshold, fn, "threshold", 0, 255)
    smallest = optional_integer(min_area, fn, "min_area", 1)
    largest = optional_integer(max_area, fn, "max_area", 1)
    if smallest is not None and largest is not None and largest < smallest:
        raise ValueError(f"{fn}: max_area ({largest}) must be >= min_area ({smallest})")
    if not isinstance(split_touching, (bool, np.bool_)):
        raise TypeError(f"{fn}: split_touching must be True or False, got {split_touching!r}")
    if not isinstance(masks, (bool, np.bool_)):
        raise TypeError(f"{fn}: masks must be True or False, got {masks!r}")

    rgb = image_rgb(image, fn)
    luminance = gray(rgb)
    height, width = luminance.shape
    if smallest is None:
        smallest = max(9, round(height * width * 1e-5))
    automatic = mode == "auto"
    if automatic:
        mode, deviation, cut = _segment.deviation_polarity(luminance)
    if mode == "both":
        # Objects darker and lighter than the background: whatever differs
        # from the fitted background surface is object.
        plain = _colour_difference(rgb, cut)
        plain = cv2.morphologyEx(plain.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        # An object's bright and dark parts (a ball and its shaded side, a
        # pencil and its metal tip) meet across a thin seam: close it.
        plain = cv2.morphologyEx(plain, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8)) > 0
        objects = _segment.split_objects(plain, plain, bool(split_touching), smallest, largest)
    else:
        bright = luminance if mode == "bright" else 255 - luminance
        if automatic:
            # Measured against the fitted background: vignetting and a light
            # fall-off no longer dim the objects in the corners.
            sign = 1.0 if mode == "bright" else -1.0
            bright = np.clip(sign * deviation + BACKGROUND_LEVEL, 0, 255).astype(np.uint8)
        if level is not None and mode == "dark":
            level = 255 - level
        plain, refined = _segment.foreground(bright, level)
        objects = _segment.split_objects(plain, refined, bool(split_touching), smallest, largest)
    if automatic:
        objects = [o for o in objects if not _segment.touches_three_sides(o[0], height, width)]
    if min_area is None and objects:
        # Shadows and specks beside real objects: by default an object must
        # have RELATIVE_MIN_AREA of the largest one's area.
        biggest = max(int(o[1].sum()) for o in objects)
        objects = [o for o in objects if int(o[1].sum()) >= RELATIVE_MIN_AREA * biggest]
    if masks and len(objects) * height * width > MASK_BUDGET_BYTES:
        raise ValueError(
            f"{fn}: found {len(objects)} objects; their {width}x{height} masks would need "
            f"{len(objects) * height * width / 1024**3:.1f} GiB. Call again with masks=False "
            "(you still get bbox, area and centroid), raise min_area, or crop the image."
        )
    return object_results(objects, name, height, width, bool(masks))


def _colour_difference(rgb: np.ndarray, luminance_cut: float) -> np.ndarray:
    """Pixels that differ from the background in brightness or in colour: each
    channel's background is fitted as a smooth surface, and a pixel is object
    when its colour distance from it passes the cut (a pink lighter on a grey
    desk differs more in colour than in brightness)."""
    squares = np.zeros(rgb.shape[:2], np.float32)
    surfaces = []
    for channel in range(3):
        plane = np.ascontiguousarray(rgb[:, :, channel])
        surface, _ = _segment.background_surface(plane)
        surfaces.append(np.maximum(surface, 1.0))
        squares += (plane.astype(np.float32) - surface) ** 2
    distance = np.sqrt(squares / 3.0)
    # A shadow is the background, darker (to 45-90%) with its colour kept:
    # every channel falls by about the same ratio.
    ratios = np.stack([rgb[:, :, c].astype(np.float32) / surfaces[c] for c in range(3)], axis=2)
    mean_ratio = ratios.mean(axis=2)
    shadow = (mean_ratio > 0.45) & (mean_ratio < 0.9) & (np.abs(ratios - mean_ratio[:, :, None]).max(axis=2) < 0.06)
    return (distance > luminance_cut) & ~shadow
