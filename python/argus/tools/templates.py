"""Finding every copy of a small picture (a template) inside a larger image.

Public: find_template.
"""

from __future__ import annotations

import math

from typing import Any, Dict, List, Optional, Sequence

from .._cv2 import cv2
import numpy as np

from .._convert import type_name
from ..images import ImageLike
from ._checks import fraction, image_rgb, integer, number, text
from ._results import by_score, detection, non_max_suppression

MAX_MATCHES_DEFAULT = 200
FEATURE_WORK_PIXELS = 1600 * 1200  # SIFT runs on at most this many pixels


def find_template(
    image: ImageLike,
    template: Any,
    box_threshold: float = 0.8,
    scales: Optional[Sequence[float]] = None,
    label: str = "match",
    max_matches: int = MAX_MATCHES_DEFAULT,
) -> List[Dict[str, Any]]:
    """Find every place where a template (an example crop) appears in an image.

    When to use: counting repeated identical items (icons, logos, symbols on a
    map, parts on a sheet, chess pieces, screws in a tray) once you have one
    example; checking whether a logo, product or UI element is present.
    Two matchers run side by side: normalised cross-correlation of RGB pixels
    finds every copy at the template's size and rotation (pass `scales` for
    copies of other sizes), and SIFT keypoints with a RANSAC homography find
    the single best copy that is rotated, scaled (e.g. 12 degrees at half
    size) or seen in perspective, even in a busy photo. Not for categories of objects that look
    different from each other (use a detector, segment_color or count_objects).

    Args:
        image: where to search: file path, RGB numpy array, PIL image or video frame dict.
        template: the example: an image (path, array, PIL image), or a box
            [x1, y1, x2, y2] in pixels of `image` to crop the example from it.
        box_threshold: minimum match score in [0, 1] (default 0.8); lower it
            (0.6) when copies vary in lighting or are slightly blurred, raise
            it (0.9) when near-identical distractors give false matches. A
            keypoint match scores its correlation after being warped back,
            raised by how many keypoints agree with its homography.
        scales: template sizes to try, as factors (default [1.0]), e.g.
            [0.8, 0.9, 1.0, 1.1, 1.25] for copies up to 25% smaller or larger.
        label: label of the matches (default "match").
        max_matches: at most this many matches are returned (default 200).

    Returns:
        A list of {"label": str, "score": float, "bbox": [x1, y1, x2, y2],
        "scale": float (the copy's size relative to the template)}, best score first. Overlapping matches are reduced to
        the best one, so each copy appears once (the example itself included,
        when it was cropped from `image`).

    Example:
        icons = find_template("sheet.png", [40, 60, 88, 104], box_threshold=0.75)
        print(len(icons), "copies")
    """
    fn = "find_template"
    threshold = fraction(box_threshold, fn, "box_threshold")
    name = text(label, fn, "label")
    limit = integer(max_matches, fn, "max_matches", 1, 100_000)
    factors = _scales(scales, fn)
    pixels = image_rgb(image, fn)
    height, width = pixels.shape[:2]
    example = _template(template, pixels, fn)

    boxes: List[tuple] = []
    scores: List[float] = []
    used_scales: List[float] = []
    for factor in factors:
        size = (max(1, round(example.shape[1] * factor)), max(1, round(example.shape[0] * factor)))
        if size[0] > width or size[1] > height:
            continue
        scaled = example if factor == 1.0 else cv2.resize(
            example, size, interpolation=cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR
        )
        result = cv2.matchTemplate(pixels, scaled, cv2.TM_CCOEFF_NORMED)
        result = np.nan_to_num(result, nan=0.0, posinf=0.0, neginf=0.0)
        # Local maxima within half a template: each copy gives one peak, not a plateau of hits.
        kernel = np.ones((max(1, size[1] // 2) | 1, max(1, size[0] // 2) | 1), np.uint8)
        peaks = (result >= threshold) & (result >= cv2.dilate(result, kernel))
        ys, xs = np.nonzero(peaks)
        if len(xs) > 50 * limit:  # a flat region matches everywhere; keep the best ones only
            best = np.argsort(-result[ys, xs])[: 50 * limit]
            ys, xs = ys[best], xs[best]
        for x, y in zip(xs, ys):
            boxes.append((float(x), float(y), float(x + size[0]), float(y + size[1])))
            scores.append(float(result[y, x]))
            used_scales.append(factor)
    # Correlation needs the copy at the template's own size and rotation; local
    # features (SIFT + a RANSAC homography) find a copy that is rotated, scaled
    # or seen in perspective, and are not fooled by a busy background.
    for box, score in _feature_matches(pixels, example, threshold):
        boxes.append(box)
        scores.append(score)
        used_scales.append(round(math.sqrt(max(1.0, (box[2] - box[0]) * (box[3] - box[1])) / (example.shape[0] * example.shape[1])), 3))
    keep = non_max_suppression(boxes, scores, 0.3)[:limit]
    return by_score(
        [detection(name, scores[i], boxes[i], width, height, scale=used_scales[i]) for i in keep]
    )


def _feature_matches(pixels: np.ndarray, example: np.ndarray, threshold: float) -> List[tuple]:
    """The best copy of `example` in `pixels` found by SIFT keypoints and a
    homography: [(box, score)] or []. The score is the normalised correlation
    between the template and the image region warped back onto it (so it is
    comparable with the correlation scores), raised by the share of matches
    that agree with the homography; a copy needs >= 10 agreeing keypoints."""
    if min(example.shape[:2]) < 16 or not hasattr(cv2, "SIFT_create"):
        return []
    scene = cv2.cvtColor(pixels, cv2.COLOR_RGB2GRAY)
    small = cv2.cvtColor(example, cv2.COLOR_RGB2GRAY)
    factor = min(1.0, math.sqrt(FEATURE_WORK_PIXELS / scene.size))
    work = scene if factor == 1.0 else cv2.resize(scene, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    sift = cv2.SIFT_create(nfeatures=4000)
    # Small templates are enlarged: SIFT needs ~50 px to find enough keypoints.
    up = max(1.0, 64.0 / min(small.shape))
    template = small if up == 1.0 else cv2.resize(small, None, fx=up, fy=up, interpolation=cv2.INTER_CUBIC)
    kt, dt = sift.detectAndCompute(template, None)
    if dt is None or len(kt) < 10:
        return []
    ks, ds = sift.detectAndCompute(work, None)
    if ds is None or len(ks) < 10:
        return []
    pairs = cv2.BFMatcher(cv2.NORM_L2).knnMatch(dt, ds, k=2)
    good = [p[0] for p in pairs if len(p) == 2 and p[0].distance < 0.75 * p[1].distance]
    if len(good) < 10:
        return []
    source = np.float32([kt[m.queryIdx].pt for m in good]) / up
    target = np.float32([ks[m.trainIdx].pt for m in good]) / factor
    homography, inliers = cv2.findHomography(source, target, cv2.RANSAC, 4.0 / factor)
    if homography is None or inliers is None or int(inliers.sum()) < 10:
        return []
    h, w = small.shape
    corners = cv2.perspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]).reshape(-1, 1, 2), homography).reshape(-1, 2)
    if not cv2.isContourConvex(corners.astype(np.float32)):
        return []
    area = cv2.contourArea(corners)
    if not (0.01 * w * h <= area <= 100 * w * h):
        return []
    try:
        back = cv2.warpPerspective(scene, np.linalg.inv(homography), (w, h), flags=cv2.INTER_LINEAR)
    except np.linalg.LinAlgError:
        return []
    ncc = float(cv2.matchTemplate(back, small, cv2.TM_CCOEFF_NORMED)[0, 0])
    agreement = float(inliers.sum()) / len(good)
    score = max(0.0, min(1.0, ncc + (1.0 - ncc) * agreement * min(1.0, float(inliers.sum()) / 40.0)))
    if score < threshold:
        return []
    height, width = scene.shape
    x1, y1 = max(0.0, float(corners[:, 0].min())), max(0.0, float(corners[:, 1].min()))
    x2, y2 = min(float(width), float(corners[:, 0].max())), min(float(height), float(corners[:, 1].max()))
    if x2 - x1 < 3 or y2 - y1 < 3:
        return []
    return [((x1, y1, x2, y2), score)]


def _scales(scales: Any, fn: str) -> List[float]:
    if scales is None:
        return [1.0]
    if isinstance(scales, (int, float)) and not isinstance(scales, bool):
        scales = [scales]
    if not isinstance(scales, (list, tuple, np.ndarray)) or len(scales) == 0:
        raise TypeError(f"{fn}: scales must be a non-empty list of numbers such as [0.9, 1.0, 1.1], got {scales!r}")
    return [number(value, fn, f"scales[{index}]", 0.05, 20.0) for index, value in enumerate(scales)]


def _template(template: Any, pixels: np.ndarray, fn: str) -> np.ndarray:
    """The template as RGB uint8: a crop of `pixels` when given as a box, else loaded."""
    height, width = pixels.shape[:2]
    if isinstance(template, (list, tuple)) and len(template) == 4 and all(
        isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool) for v in template
    ):
        x1, y1, x2, y2 = (int(round(float(v))) for v in template)
        x1, y1 = max(0, x1), max(0, y1)
        x2, y2 = min(width, x2), min(height, y2)
        if x2 - x1 < 3 or y2 - y1 < 3:
            raise ValueError(
                f"{fn}: template box {list(template)} is smaller than 3x3 pixels inside the "
                f"{width}x{height} image; give [x1, y1, x2, y2] in pixels"
            )
        example = pixels[y1:y2, x1:x2].copy()
    elif template is None or isinstance(template, (list, tuple)):
        raise TypeError(
            f"{fn}: template must be an image (path, numpy array, PIL image) or a box [x1, y1, x2, y2], "
            f"got {type_name(template)} {template!r}"
        )
    else:
        example = image_rgb(template, fn, "template")
    if example.shape[0] > height or example.shape[1] > width:
        raise ValueError(
            f"{fn}: template ({example.shape[1]}x{example.shape[0]}) is larger than the image ({width}x{height})"
        )
    if example.shape[0] < 3 or example.shape[1] < 3:
        raise ValueError(f"{fn}: template is {example.shape[1]}x{example.shape[0]} pixels; it needs at least 3x3")
    if float(example.std()) < 1.0:
        raise ValueError(
            f"{fn}: template is a flat single colour, so it matches nothing specific; "
            "use segment_color to find areas of one colour"
        )
    return example
