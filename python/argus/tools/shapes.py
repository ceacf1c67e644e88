"""Round things: circles (Hough transform) and blobs (Laplacian-of-Gaussian scale space).

Public: detect_circles, detect_blobs.
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional

from .._cv2 import cv2
import numpy as np

from ..images import ImageLike
from ._checks import choice, fraction, gray, image_rgb, integer, number, optional_number
from ._results import by_score, detection

# Circles: the Hough search runs on at most this many pixels (larger images are
# shrunk and the results scaled back). Edges are crisp at that size even in
# soft, upscaled photos, and a call stays well under a second.
CIRCLE_WORK_PIXELS = 1024 * 768
MIN_RADIUS_FRACTION = 0.02  # default smallest radius, of the shorter side (in the work image)
MAX_SURROUND_TEXTURE = 0.35  # circles whose surroundings are over 35% edges as strong as their rim are texture
NESTED = 0.8  # a circle under 0.8x the radius of one around it is its inner pattern
OUTER_MARGIN = 0.25  # the outer circle wins when it scores at most this much lower
EDGE_MARGIN = 0.05  # margin added around the picture for the circle search (of the shorter side)
MIN_VISIBLE = 0.5  # a circle cut by the image edge is scored on its visible part if this much shows
BAND = 0.015  # radial tolerance (fraction of the radius) when scoring edge support
# Blobs: the scale space holds one float image per scale, so it is capped lower.
BLOB_WORK_PIXELS = 3_000_000
# sigma^2 * Laplacian at a disc's centre, at the best scale, is this fraction of
# the disc's contrast (measured; independent of radius): turns responses into contrast.
LOG_RESPONSE_PER_CONTRAST = 0.733


def detect_circles(
    image: ImageLike,
    box_threshold: float = 0.5,
    min_radius: Optional[int] = None,
    max_radius: Optional[int] = None,
) -> List[Dict[str, Any]]:
    """Find circular outlines: coins, wheels, plates, pills, round buttons, holes, dish colonies.

    When to use: counting or measuring round objects whose edge is visible,
    even when they touch each other. Each circle is scored by how much of its
    circumference has a strong edge pointing at the centre, all of one
    polarity (the object darker or lighter than its surroundings all round),
    so partly hidden circles score lower. Circles cut by the image edge are
    found and scored on their visible part when at least half shows.
    "Circles" whose surroundings are as full of edges as their own rim
    (heads in a crowd, foliage, a circuit board) are texture and dropped; an
    object's outline wins over a smaller pattern printed on it (a football's
    panels). For round objects without a clear rim (soft spots,
    cells, stars) use detect_blobs; for irregular objects use count_objects.

    Args:
        image: a file path, RGB numpy array, PIL image or video frame dict.
        box_threshold: minimum score in [0, 1] (default 0.5): the fraction of
            the visible circumference supported by an edge of one polarity.
            Lower it (0.3) for faint, blurred or partly covered circles; raise
            it (0.8) in clutter (crowds, foliage, circuit boards) where
            texture forms circles, or for clean, complete ones.
        min_radius: smallest radius in pixels (default: 2% of the shorter image
            side, at least 4 px). Setting both radii to the expected size range
            is the best way to avoid false circles in a busy photo: raise
            min_radius above the texture's grain (heads in a crowd, leaves).
        max_radius: largest radius in pixels (default: half the shorter side).

    Returns:
        A list of {"label": "circle", "score": float, "bbox": [x1, y1, x2, y2],
        "center": [x, y], "radius": float} in pixels, best score first.
        Circles nested inside a better circle (e.g. the rim of a coin's
        design) are dropped. Empty list when none is found.

    Example:
        coins = detect_circles("coins.jpg", min_radius=10, max_radius=60)
        print(len(coins), sorted(c["radius"] for c in coins))
    """
    fn = "detect_circles"
    threshold = fraction(box_threshold, fn, "box_threshold")
    low = None if min_radius is None else number(min_radius, fn, "min_radius", 1)
    high = None if max_radius is None else number(max_radius, fn, "max_radius", 1)
    if low is not None and high is not None and high < low:
        raise ValueError(f"{fn}: max_radius ({max_radius}) must be >= min_radius ({min_radius})")
    pixels = gray(image_rgb(image, fn))
    height, width = pixels.shape
    if min(height, width) < 8:
        return []

    factor = min(1.0, math.sqrt(CIRCLE_WORK_PIXELS / (height * width)))
    work = pixels if factor == 1.0 else cv2.resize(
        pixels, (round(width * factor), round(height * factor)), interpolation=cv2.INTER_AREA
    )
    short = min(work.shape)
    low_work = max(3, round((low * factor) if low is not None else max(4 * factor, MIN_RADIUS_FRACTION * short)))
    high_work = max(low_work + 1, round((high * factor) if high is not None else short / 2))

    # Stretch the contrast so the fixed edge threshold suits dim and bright photos alike.
    work = cv2.normalize(work, None, 0, 255, cv2.NORM_MINMAX)
    smooth = cv2.GaussianBlur(work, (0, 0), 1.5)
    # The picture is searched as it is and with a margin of background grey
    # around it, which lets the accumulator propose circles cut by the frame
    # (their centre may lie near or beyond the edge); proposals are shifted
    # back and all are scored on the real picture.
    pad = max(4, min(high_work, round(EDGE_MARGIN * short)))
    border = int(np.median(np.concatenate([smooth[0], smooth[-1], smooth[:, 0], smooth[:, -1]])))
    padded = cv2.copyMakeBorder(smooth, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=border)
    proposals = []
    for view, shift in ((smooth, 0), (padded, pad)):
        found = cv2.HoughCircles(
            view,
            cv2.HOUGH_GRADIENT_ALT,
            dp=1.5,
            minDist=max(2, low_work),
            param1=300,
            param2=0.3,  # generous (finds broken outlines: a ball on grass): every candidate is re-scored below
            minRadius=low_work,
            maxRadius=high_work,
        )
        if found is not None:
            proposals.append(found.reshape(-1, 3) - np.array([shift, shift, 0], np.float32))
    if not proposals:
        return []
    found = np.concatenate(proposals)
    gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3)
    magnitude = cv2.magnitude(gx, gy)
    strong = 0.25 * float(np.percentile(magnitude, 95)) + 1e-3

    scored = []
    for x, y, radius in found.reshape(-1, 3):
        score = _edge_support(gx, gy, magnitude, strong, float(x), float(y), float(radius))
        if score >= threshold:
            scored.append((score, float(x) / factor, float(y) / factor, float(radius) / factor))
    scored.sort(key=lambda item: -item[0])
    # In texture (a crowd, foliage, a circuit board) circles are everywhere and
    # mean nothing: a round object stands out from a calmer surround. Circles
    # whose surroundings are mostly strong edges are dropped.
    scored = [
        item for item in scored
        if _surround_texture(magnitude, strong, item[1] * factor, item[2] * factor, item[3] * factor) <= MAX_SURROUND_TEXTURE
    ]
    kept: List[tuple] = []
    for score, x, y, radius in scored:
        # A centre inside a better circle: a duplicate, or a ring drawn on that object.
        inside = [k for k in kept if math.hypot(x - k[1], y - k[2]) < k[3]]
        # ...unless this circle is the object around them: a ball whose
        # printed panels scored a little higher than its broken outline.
        around = inside and all(
            k[3] < NESTED * radius and math.hypot(x - k[1], y - k[2]) + k[3] <= 1.1 * radius and score >= k[0] - OUTER_MARGIN
            for k in inside
        )
        if inside and not around:
            continue
        kept = [k for k in kept if k not in inside] + [(score, x, y, radius)]
    return [
        detection(
            "circle", score, (x - r, y - r, x + r + 1, y + r + 1), width, height,
            center=[round(x, 1), round(y, 1)], radius=round(r, 1),
        )
        for score, x, y, r in kept
    ]


def _surround_texture(magnitude: np.ndarray, strong: float, x: float, y: float, radius: float) -> float:
    """Share of the ring from 1.2 to 1.5 radii around a circle (inside the
    image) whose edges are at least half as strong as the circle's own rim:
    low around an object on a table or grass (weaker edges) or among other
    objects (their rims cover part of the ring), high for a "circle" made of
    crowd or foliage texture, where everything around is as edgy as the rim."""
    count = max(32, int(2 * math.pi * radius * 1.4))
    angles = np.linspace(0.0, 2 * math.pi, count, endpoint=False)
    cos, sin = np.cos(angles), np.sin(angles)
    height, width = magnitude.shape

    def ring(scale: float) -> np.ndarray:
        xs = np.rint(x + scale * radius * cos).astype(int)
        ys = np.rint(y + scale * radius * sin).astype(int)
        inside = (xs >= 0) & (ys >= 0) & (xs < width) & (ys < height)
        return magnitude[ys[inside], xs[inside]]

    rim = np.concatenate([ring(scale) for scale in (0.97, 1.0, 1.03)])
    around = np.concatenate([ring(scale) for scale in (1.2, 1.35, 1.5)])
    if rim.size == 0 or around.size == 0:
        return 0.0
    level = max(strong, 0.5 * float(np.percentile(rim, 75)))
    relative = float((around > level).mean())
    # Weaker edges too (a quarter of the rim's strength): in a crowd most of
    # the ring is edges even where the rim itself happens to be strong, while
    # noise on a plain table stays below. Scaled so that 50% of the ring
    # being such edges counts like the relative limit.
    absolute = float((around > max(strong, 0.25 * float(np.percentile(rim, 75)))).mean()) * MAX_SURROUND_TEXTURE / 0.5
    return max(relative, absolute)


def _edge_support(
    gx: np.ndarray, gy: np.ndarray, magnitude: np.ndarray, strong: float, x: float, y: float, radius: float
) -> float:
    """Fraction of the circle's circumference where a strong edge pointing along
    the radius lies within a thin band around the circle (+-1.5% of the radius,
    at least +-1 px: real round things are slightly out of round).

    Only edges of one polarity count (the object darker than its surroundings
    all the way round, or lighter): a real round object's rim keeps its sign,
    while circles "found" in texture (a crowd, foliage) mix both.
    The part of the circle outside the image is left out of the fraction as
    long as at least MIN_VISIBLE of it is inside: a ball cut by the frame is
    still a circle."""
    count = max(32, int(2 * math.pi * radius))
    angles = np.linspace(0.0, 2 * math.pi, count, endpoint=False)
    cos, sin = np.cos(angles), np.sin(angles)
    height, width = magnitude.shape
    band = max(1, int(round(BAND * radius)))
    outward = np.zeros(count, dtype=bool)
    inward = np.zeros(count, dtype=bool)
    visible = np.zeros(count, dtype=bool)
    for r in radius + np.arange(-band, band + 1):
        xs = np.rint(x + r * cos).astype(int)
        ys = np.rint(y + r * sin).astype(int)
        # The outermost pixel row has no gradient worth the name: not visible.
        inside = (xs >= 1) & (ys >= 1) & (xs < width - 1) & (ys < height - 1)
        visible |= inside
        xs, ys = np.clip(xs, 0, width - 1), np.clip(ys, 0, height - 1)
        m = magnitude[ys, xs]
        radial = (gx[ys, xs] * cos + gy[ys, xs] * sin) / (m + 1e-6)
        edge = inside & (m > strong)
        outward |= edge & (radial > 0.8)
        inward |= edge & (radial < -0.8)
    if visible.mean() < MIN_VISIBLE:
        return 0.0
    return float(max((outward & visible).sum(), (inward & visible).sum())) / float(visible.sum())


def detect_blobs(
    image: ImageLike,
    box_threshold: float = 0.15,
    min_radius: float = 2.0,
    max_radius: Optional[float] = None,
    polarity: str = "both",
    num_scales: int = 10,
) -> List[Dict[str, Any]]:
    """Find roundish spots that stand out from their surroundings, at any size (LoG blob detector).

    When to use: counting spots, dots, cells, stars, bubbles, seeds or holes
    that have no sharp rim, or whose size varies a lot; measuring their sizes.
    Each blob is scored by its contrast against its surroundings. For sharp
    circular rims use detect_circles; for objects of arbitrary shape use
    count_objects.

    Args:
        image: a file path, RGB numpy array, PIL image or video frame dict.
        box_threshold: minimum contrast in [0, 1] (default 0.15 = 15% of the
            full grey range); raise it to keep only clear spots, lower it
            (0.05) for faint ones. Textured photos give many weak blobs.
        min_radius: smallest blob radius in pixels (default 2).
        max_radius: largest blob radius in pixels (default: 1/8 of the shorter side).
        polarity: "bright" (light spots on a dark background), "dark" (dark
            spots on a light background) or "both" (default).
        num_scales: number of sizes tried between min and max radius (default 10).

    Returns:
        A list of {"label": "blob", "score": float, "bbox": [x1, y1, x2, y2],
        "center": [x, y], "radius": float, "polarity": "bright" or "dark"},
        best score first. Overlapping detections of one blob are merged.
        Images above 3 MP are searched shrunk, so blobs below ~2 px radius at
        that size are missed there.
    """
    fn = "detect_blobs"
    threshold = fraction(box_threshold, fn, "box_threshold")
    low = number(min_radius, fn, "min_radius", 0.5)
    high = optional_number(max_radius, fn, "max_radius", 0.5)
    if high is not None and high < low:
        raise ValueError(f"{fn}: max_radius ({max_radius}) must be >= min_radius ({min_radius})")
    mode = choice(polarity, fn, "polarity", ("bright", "dark", "both"))
    scales = integer(num_scales, fn, "num_scales", 2, 40)
    pixels = gray(image_rgb(image, fn))
    height, width = pixels.shape
    if high is None:
        high = max(low, min(height, width) / 8)

    factor = min(1.0, math.sqrt(BLOB_WORK_PIXELS / (height * width)))
    work = pixels if factor == 1.0 else cv2.resize(
        pixels, (round(width * factor), round(height * factor)), interpolation=cv2.INTER_AREA
    )
    work = work.astype(np.float32)
    # A disc of radius r responds most at sigma = r / sqrt(2).
    sigmas = np.geomspace(max(0.5, low * factor / math.sqrt(2)), max(0.6, high * factor / math.sqrt(2)), scales)
    sigmas = np.unique(np.round(sigmas, 3))
    responses = np.stack([_normalised_log(work, float(s)) for s in sigmas])
    floor = threshold * 255.0 * LOG_RESPONSE_PER_CONTRAST
    found = []
    signs = {"bright": (-1.0,), "dark": (1.0,), "both": (-1.0, 1.0)}[mode]
    for sign in signs:
        found += _scale_space_peaks(sign * responses, sigmas, max(floor, 1e-3), "bright" if sign < 0 else "dark")
    del responses

    kept = _merge_duplicates(found)
    results = []
    for response, x, y, radius, kind in kept:
        cx, cy, r = x / factor, y / factor, radius / factor
        score = min(1.0, response / LOG_RESPONSE_PER_CONTRAST / 255.0)
        results.append(
            detection(
                "blob", score, (cx - r, cy - r, cx + r + 1, cy + r + 1), width, height,
                center=[round(cx, 1), round(cy, 1)], radius=round(r, 1), polarity=kind,
            )
        )
    return by_score(results)


def _normalised_log(work: np.ndarray, sigma: float) -> np.ndarray:
    """sigma^2 * Laplacian of Gaussian of `work` at scale sigma. Large scales are
    computed on a shrunk copy and enlarged back: a Gaussian blur costs time in
    proportion to sigma, and a blurred image loses nothing by being shrunk."""
    step = max(1, int(sigma // 4))
    if step == 1:
        return cv2.Laplacian(cv2.GaussianBlur(work, (0, 0), sigma), cv2.CV_32F, ksize=1) * (sigma * sigma)
    height, width = work.shape
    small = cv2.resize(work, (max(1, width // step), max(1, height // step)), interpolation=cv2.INTER_AREA)
    scaled_sigma = sigma / step
    response = cv2.Laplacian(cv2.GaussianBlur(small, (0, 0), scaled_sigma), cv2.CV_32F, ksize=1) * (scaled_sigma**2)
    return cv2.resize(response, (width, height), interpolation=cv2.INTER_LINEAR)


def _merge_duplicates(found: List[tuple]) -> List[tuple]:
    """Strongest first, drop peaks whose centre is within 0.7 radius of a kept
    stronger one (the same blob seen at a neighbouring scale or position)."""
    if not found:
        return []
    from scipy.spatial import cKDTree  # lazy: scipy costs ~0.2 s to import

    found = sorted(found, key=lambda item: -item[0])
    points = np.array([(item[1], item[2]) for item in found])
    radii = np.array([item[3] for item in found])
    tree = cKDTree(points)
    suppressed = np.zeros(len(found), dtype=bool)
    kept = []
    reach = 0.7 * float(radii.max())
    for index, item in enumerate(found):
        if suppressed[index]:
            continue
        kept.append(item)
        for other in tree.query_ball_point(points[index], reach):
            if other != index and math.dist(points[index], points[other]) < 0.7 * max(radii[index], radii[other]):
                suppressed[other] = True
    return kept


def _scale_space_peaks(responses: np.ndarray, sigmas: np.ndarray, floor: float, kind: str) -> List[tuple]:
    """(response, x, y, radius, kind) at 3x3x3 local maxima of the scale space above `floor`."""
    kernel = np.ones((3, 3), np.uint8)
    spatial = np.stack([cv2.dilate(layer, kernel) for layer in responses])
    neighbourhood = spatial.copy()
    neighbourhood[1:] = np.maximum(neighbourhood[1:], spatial[:-1])
    neighbourhood[:-1] = np.maximum(neighbourhood[:-1], spatial[1:])
    peaks = (responses >= neighbourhood) & (responses > floor)
    layer, ys, xs = np.nonzero(peaks)
    values = responses[layer, ys, xs]
    return [
        (float(v), float(x), float(y), float(sigmas[k]) * math.sqrt(2), kind)
        for v, x, y, k in zip(values, xs, ys, layer)
    ]
