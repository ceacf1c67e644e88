"""Edges and outlines: Canny edge maps, and contours with shape measurements.

Public: detect_edges, find_contours.
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional

from .._cv2 import cv2
import numpy as np

from .._convert import type_name
from ..images import ImageLike
from . import _segment
from ._checks import choice, gray, image_rgb, number, optional_integer, optional_number
from ._results import detection


def detect_edges(
    image: ImageLike, low: Optional[float] = None, high: Optional[float] = None, blur: float = 1.0
) -> np.ndarray:
    """Find the edges in an image (Canny): thin lines where brightness changes sharply.

    When to use: outlining shapes, measuring lengths of cracks or borders,
    checking for scratches, as input to your own cv2 code (cv2.HoughLinesP on
    the edge map finds straight lines). To get separate objects with areas use
    find_contours or count_objects instead.

    Args:
        image: a file path, RGB numpy array, PIL image or video frame dict.
        low: lower hysteresis threshold on the gradient (0-1000). Default:
            chosen from the image (0.66x its median brightness, at least 10).
        high: upper threshold; strong edges start above it (default: 2x low).
            Raise both to keep only strong edges; lower them for faint ones.
        blur: Gaussian blur sigma in pixels before detection (default 1.0;
            0 for none); more blur ignores texture and noise.

    Returns:
        An HxW boolean numpy array, True on edge pixels (1 px wide).
        Example: edges.mean() is the fraction of edge pixels;
        view_image(edges) shows them.
    """
    fn = "detect_edges"
    lower = optional_number(low, fn, "low", 0, 1000)
    upper = optional_number(high, fn, "high", 0, 1000)
    sigma = number(blur, fn, "blur", 0, 50)
    luminance = gray(image_rgb(image, fn))
    smooth = cv2.GaussianBlur(luminance, (0, 0), sigma) if sigma > 0 else luminance
    if lower is None:
        lower = max(10.0, 0.66 * float(np.median(smooth)))
        if upper is not None:
            lower = min(lower, upper)
    if upper is None:
        upper = max(2.0 * lower, lower + 1.0)
    if upper < lower:
        raise ValueError(f"{fn}: high ({upper:g}) must be >= low ({lower:g})")
    return cv2.Canny(smooth, lower, upper, L2gradient=True) > 0


def find_contours(
    image: ImageLike,
    polarity: str = "auto",
    threshold: Optional[float] = None,
    min_area: Optional[int] = None,
    holes: bool = False,
) -> List[Dict[str, Any]]:
    """Outline the shapes in an image (or in a boolean mask) and measure each one.

    When to use: measuring objects: area, perimeter, centre, orientation
    (tilt), elongation and roundness of parts, cells, particles, leaves,
    printed shapes; also for measuring a mask from count_objects or
    segment_color (pass result["mask"]). Shapes that touch are outlined as one
    shape here; use count_objects first to split them.

    Args:
        image: a file path, RGB numpy array, PIL image, video frame dict, or an
            HxW boolean mask (True = shape) to outline as is.
        polarity: for images: "bright" (shapes lighter than the background),
            "dark" or "auto" (default: the side touching the border less is the background).
        threshold: grey level 0-255 separating shapes from background
            (default: automatic, Otsu after removing uneven lighting).
        min_area: smallest shape area in pixels (default: 0.001% of the image, at least 9 px).
        holes: also outline holes inside shapes, as separate entries with
            "hole": True (default False: outer outlines only).

    Returns:
        A list of dicts, largest area first:
        {"label": "contour" (or "hole"), "score": 1.0, "bbox": [x1, y1, x2, y2],
         "area": float (pixels enclosed by the outline, which runs through the
         centres of the boundary pixels), "perimeter": float (pixels),
         "centroid": [x, y], "orientation": float (degrees of the long axis:
         0 = horizontal, 90 = vertical, 45 = rising to the right),
         "major_axis": float, "minor_axis": float (lengths in pixels of the
         equivalent ellipse), "circularity": float (4*pi*area/perimeter^2; 1 for a disc),
         "hole": bool, "contour": Nx2 int array of (x, y) outline points}.
        To draw: overlay_bounding_boxes(image, result), or build a mask with
        cv2.drawContours(np.zeros((h, w), np.uint8), [c["contour"]], -1, 1, -1).
    """
    fn = "find_contours"
    mode = choice(polarity, fn, "polarity", ("auto", "bright", "dark"))
    level = optional_number(threshold, fn, "threshold", 0, 255)
    smallest = optional_integer(min_area, fn, "min_area", 1)
    if not isinstance(holes, (bool, np.bool_)):
        raise TypeError(f"{fn}: holes must be True or False, got {type_name(holes)}")

    if isinstance(image, np.ndarray) and image.dtype == bool and image.ndim == 2:
        if image.size == 0:
            raise ValueError(f"{fn}: image is an empty mask (shape {image.shape})")
        shapes = image
    else:
        luminance = gray(image_rgb(image, fn))
        if mode == "auto":
            mode = _segment.polarity_of(luminance)
        bright = luminance if mode == "bright" else 255 - luminance
        if level is not None and mode == "dark":
            level = 255 - level
        _, refined = _segment.foreground(bright, level)
        shapes = refined
    height, width = shapes.shape
    if smallest is None:
        smallest = max(9, round(height * width * 1e-5))

    retrieval = cv2.RETR_CCOMP if holes else cv2.RETR_EXTERNAL
    contours, hierarchy = cv2.findContours(shapes.astype(np.uint8), retrieval, cv2.CHAIN_APPROX_NONE)
    results = []
    for index, contour in enumerate(contours):
        is_hole = bool(holes and hierarchy is not None and hierarchy[0][index][3] >= 0)
        measured = _measure(contour)
        if measured is None or measured["area"] < smallest:
            continue
        x, y, w, h = cv2.boundingRect(contour)
        results.append(
            detection(
                "hole" if is_hole else "contour", 1.0, (x, y, x + w, y + h), width, height,
                **measured, hole=is_hole, contour=contour.reshape(-1, 2).astype(np.int32),
            )
        )
    return sorted(results, key=lambda item: -item["area"])


def _measure(contour: np.ndarray) -> Optional[Dict[str, Any]]:
    """Area, perimeter, centroid, orientation, axes and circularity of one outline."""
    moments = cv2.moments(contour)
    area = float(moments["m00"])
    if area <= 0:
        return None
    perimeter = float(cv2.arcLength(contour, True))
    cx, cy = moments["m10"] / area, moments["m01"] / area
    mu20, mu02, mu11 = moments["mu20"] / area, moments["mu02"] / area, moments["mu11"] / area
    spread = math.sqrt(4 * mu11**2 + (mu20 - mu02) ** 2)
    major = 4.0 * math.sqrt(max((mu20 + mu02 + spread) / 2, 0.0))
    minor = 4.0 * math.sqrt(max((mu20 + mu02 - spread) / 2, 0.0))
    # Image y points down; flip the sign so positive angles rise to the right as seen on screen.
    angle = -0.5 * math.degrees(math.atan2(2 * mu11, mu20 - mu02))
    if angle <= -90:
        angle += 180
    if angle > 90:
        angle -= 180
    return {
        "area": round(area, 1),
        "perimeter": round(perimeter, 1),
        "centroid": [round(cx, 1), round(cy, 1)],
        "orientation": round(angle, 1) + 0.0,  # + 0.0 turns -0.0 into 0.0
        "major_axis": round(major, 1),
        "minor_axis": round(minor, 1),
        "circularity": round(min(1.0, 4 * math.pi * area / perimeter**2), 3) if perimeter > 0 else 0.0,
    }
