"""Foreground/background separation and splitting of touching objects.

Internal module for counting.py and edges.py. The steps,
and why each is there:
  1. polarity: objects are the Otsu class that touches the image border less
     (a background surrounds its objects);
  2. flattening: uneven lighting is removed by subtracting a morphological
     opening whose size is larger than any object, so a lamp's hot spot or a
     vignetted corner does not become an "object";
  3. refinement: pixels clearly above / below the threshold seed a watershed,
     so each object's outline follows its real edge even where its inside is
     darker (worn coins, cells with nuclei);
  4. splitting: a connected region that is not one ellipse is cut at the
     necks of its distance transform (touching discs, coins, cells), then
     any two neighbouring pieces whose union IS an ellipse are glued back,
     which undoes cuts caused by dents and holes in a single object.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

from .._cv2 import cv2
import numpy as np

# A region (or a pair of pieces) whose area overlaps its moment ellipse by at
# least this IoU is one object. Two touching equal discs score ~0.75, a disc
# with a small disc attached ~0.87, a single dented coin ~0.93.
ONE_ELLIPSE_IOU = 0.9
# Peaks of the distance transform must stand this fraction of the region's
# largest inscribed radius (and at least 1 px) above the neck joining them to
# become separate objects. Low, so discs overlapping by ~10% still separate;
# over-cut single objects are glued back by the ellipse test below.
NECK_DEPTH = 0.04
# Regions bigger than this (pixels) are split on a shrunk copy: the watershed
# and h-maxima cost ~100 bytes per pixel.
SPLIT_WORK_PIXELS = 1_000_000
# Shape tests run on at most this many pixels along the longer side (IoU does not depend on scale).
SHAPE_TEST_EDGE = 256
MAX_PIECE_ELONGATION = 3.0  # a split giving a piece longer than 3x its width is undone
MIXED_SHARE = 0.15  # objects on both sides of the background: the smaller side's share of object pixels


def polarity_of(gray: np.ndarray) -> str:
    """'bright' when objects are lighter than the background, else 'dark'."""
    threshold, _ = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    above = gray > threshold
    border = np.concatenate([above[0], above[-1], above[:, 0], above[:, -1]])
    border_above = float(border.mean())
    if abs(border_above - 0.5) > 0.1:
        return "dark" if border_above > 0.5 else "bright"
    # The border is mixed: the smaller class is taken as the objects.
    return "bright" if above.mean() <= 0.5 else "dark"


def background_surface(gray: np.ndarray) -> Tuple[np.ndarray, float]:
    """A smooth estimate of the background (HxW float32) and its noise (sigma).

    The background is taken to be the side of the Otsu split whose largest
    connected patch is bigger (a table, a light box, a page: one wide
    region; a dark frame or vignette around it is smaller and objects are
    many small patches). A smooth surface (cubic plus vignetting) is fitted to it robustly on a
    128 px copy, refitted on the pixels it explains, so vignetting and
    uneven light are followed, and objects of either polarity stand out."""
    height, width = gray.shape
    scale = min(1.0, 128.0 / max(height, width))
    small = cv2.resize(gray, (max(1, round(width * scale)), max(1, round(height * scale))), interpolation=cv2.INTER_AREA)
    level, _ = cv2.threshold(small, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    best_area, seed = -1, None
    for side in (small > level, small <= level):
        count, labels, stats, _ = cv2.connectedComponentsWithStats(side.astype(np.uint8), connectivity=4)
        if count > 1:
            biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
            if stats[biggest, cv2.CC_STAT_AREA] > best_area:
                best_area, seed = int(stats[biggest, cv2.CC_STAT_AREA]), labels == biggest
    values = small.astype(np.float64).ravel()
    sh, sw = small.shape
    yy, xx = np.mgrid[0:sh, 0:sw]
    xs, ys = (xx / sw - 0.5).ravel(), (yy / sh - 0.5).ravel()
    design = _surface_terms(xs, ys)
    keep = seed.ravel() if seed is not None else np.ones(values.size, bool)
    coef = np.zeros(11)
    sigma = 1.0
    for _ in range(5):
        if keep.sum() < 11:
            break
        coef, *_ = np.linalg.lstsq(design[keep], values[keep], rcond=None)
        residual = values - design @ coef
        sigma = 1.4826 * float(np.median(np.abs(residual[keep]))) + 1.0
        keep = np.abs(residual) < max(3.0 * sigma, 8.0)
    # Evaluated on the small grid and enlarged: the surface is smooth, and a
    # 12 MP image must not pay for eleven full-size terms.
    small_surface = (design @ coef).reshape(sh, sw).astype(np.float32)
    surface = cv2.resize(small_surface, (width, height), interpolation=cv2.INTER_LINEAR)
    return surface, sigma


def _surface_terms(xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Terms of the background surface: a cubic (light falling across the
    scene, unevenly) plus the 4th power of the distance from the centre (a lens's
    vignetting darkens the corners faster than a quadratic can)."""
    radius2 = xs * xs + ys * ys
    terms = [np.ones_like(xs), xs, ys, xs * xs, xs * ys, ys * ys,
             xs * xs * xs, xs * xs * ys, xs * ys * ys, ys * ys * ys, radius2 * radius2]
    return np.stack(terms, axis=-1)


def deviation_polarity(gray: np.ndarray) -> Tuple[str, np.ndarray, float]:
    """("bright" | "dark" | "both", gray minus background, threshold): which
    side(s) of the background the objects lie on. Both sides count when the
    smaller one holds at least MIXED_SHARE of the object pixels (a white
    ball and a dark lid on a grey desk)."""
    surface, sigma = background_surface(gray)
    deviation = gray.astype(np.float32) - surface
    magnitude = np.clip(np.abs(deviation), 0, 255).astype(np.uint8)
    level, _ = cv2.threshold(magnitude, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # Otsu splits off the strongest objects; fainter ones (a grey coin on a
    # grey desk) need a cut nearer the noise floor.
    level = max(0.6 * float(level), 4.0 * sigma)
    bright = int((deviation > level).sum())
    dark = int((deviation < -level).sum())
    if min(bright, dark) >= MIXED_SHARE * (bright + dark):
        return "both", deviation, level
    return ("bright" if bright >= dark else "dark"), deviation, level


def touches_three_sides(where: Tuple[slice, slice], height: int, width: int) -> bool:
    """A region reaching three or four image edges is a frame, a vignette or
    the background itself, not an object (objects cut by the frame touch one
    edge, or two at a corner)."""
    rows, cols = where
    sides = (rows.start <= 2) + (rows.stop >= height - 2) + (cols.start <= 2) + (cols.stop >= width - 2)
    return sides >= 3


def flatten(bright: np.ndarray, object_size: float) -> np.ndarray:
    """`bright` minus its background, estimated by a grey opening with a disc
    of diameter ~1.5x the largest object (computed on a shrunk copy: the
    background is smooth, and a big opening at full size is slow)."""
    height, width = bright.shape
    kernel = int(min(max(15.0, 1.5 * object_size + 5), min(height, width)))
    scale = min(1.0, 31.0 / kernel)
    small = bright
    if scale < 1.0:
        small = cv2.resize(bright, (max(1, round(width * scale)), max(1, round(height * scale))), interpolation=cv2.INTER_AREA)
    size = max(3, int(round(kernel * scale)) | 1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    background = cv2.morphologyEx(small, cv2.MORPH_OPEN, disc, borderType=cv2.BORDER_REPLICATE)
    background = cv2.blur(background, (max(3, size // 2) | 1,) * 2)
    if scale < 1.0:
        background = cv2.resize(background, (width, height), interpolation=cv2.INTER_LINEAR)
    # Subtracting a slightly blurred opening can poke above the image; clip at 0.
    return cv2.subtract(bright, np.minimum(background, bright))


def largest_inscribed_diameter(mask: np.ndarray) -> float:
    """Diameter of the biggest disc that fits in any component of `mask` (0 if empty)."""
    if not mask.any():
        return 0.0
    distance = cv2.distanceTransform(mask.astype(np.uint8), cv2.DIST_L2, 5)
    return 2.0 * float(distance.max())


def foreground(bright: np.ndarray, threshold: Optional[float]) -> Tuple[np.ndarray, np.ndarray]:
    """(plain, refined) object masks of an image whose objects are bright.

    plain: pixels above the threshold (Otsu of the flattened image when
    `threshold` is None). refined: the same objects with outlines moved to the
    strongest edges (a watershed seeded by sure pixels)."""
    smooth = cv2.GaussianBlur(bright, (0, 0), 1.0)
    if threshold is not None:
        plain = smooth > threshold
        return plain, plain
    _, rough = cv2.threshold(smooth, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    flat = flatten(smooth, largest_inscribed_diameter(rough > 0))
    level, _ = cv2.threshold(flat, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    plain = flat > level
    if level < 8:  # no real contrast left: nothing stands out from the background
        return np.zeros_like(plain), np.zeros_like(plain)

    # Sure background (< half the threshold) and sure objects (> 1.2x) seed a
    # watershed on the smoothed image; the undecided band in between goes to
    # whichever side it joins across the weaker edge. OpenCV's watershed works
    # in place on an int32 label image: O(pixels) time, 7 bytes per pixel.
    seeds = np.zeros(bright.shape, np.int32)
    seeds[flat < 0.5 * level] = 1
    seeds[flat > 1.2 * level] = 2
    cv2.watershed(cv2.cvtColor(smooth, cv2.COLOR_GRAY2BGR), seeds)
    # Not `seeds != 1`: OpenCV also writes -1 (line) all around the image border.
    refined = seeds == 2
    return plain, refined


def fill_holes(mask: np.ndarray) -> np.ndarray:
    """`mask` with every enclosed hole filled (background parts that do not
    reach the image border). Connected components instead of scipy's
    binary_fill_holes, whose repeated dilations take minutes on 40 MP."""
    background = (~mask).astype(np.uint8)
    count, labels = cv2.connectedComponents(background, connectivity=4)
    reaches_border = np.zeros(count, dtype=bool)
    for edge in (labels[0], labels[-1], labels[:, 0], labels[:, -1]):
        reaches_border[np.unique(edge)] = True
    reaches_border[0] = True  # label 0 is the mask itself
    return mask | ~reaches_border[labels]


def split_objects(
    plain: np.ndarray, refined: np.ndarray, split: bool, min_area: int, max_area: Optional[int]
) -> List[Tuple[Tuple[slice, slice], np.ndarray]]:
    """One (slices, boolean crop) per object: the refined, hole-filled mask cut
    into objects. Objects outside [min_area, max_area] are dropped."""
    from scipy import ndimage

    filled = fill_holes(refined)
    labels, count = ndimage.label(filled)
    objects = []
    for index, where in enumerate(ndimage.find_objects(labels), start=1):
        if where is None:
            continue
        region = labels[where] == index
        if region.sum() < min_area:
            continue
        whole = (slice(0, region.shape[0]), slice(0, region.shape[1]))
        pieces = [(whole, region)]
        if split and ellipse_iou(region) < ONE_ELLIPSE_IOU:
            pieces = _split_region(region, plain[where] & region)
        for piece_where, piece in pieces:
            area = int(piece.sum())
            if area < min_area or (max_area is not None and area > max_area):
                continue
            rows, cols = piece_where
            full = (
                slice(where[0].start + rows.start, where[0].start + rows.stop),
                slice(where[1].start + cols.start, where[1].start + cols.stop),
            )
            objects.append((full, piece))
    return objects


def _split_region(region: np.ndarray, core: np.ndarray) -> List[Tuple[Tuple[slice, slice], np.ndarray]]:
    """Cut a region at the necks of the distance transform of its `core`
    (the plain threshold mask, whose necks are thinner), then glue back
    neighbouring pieces whose union is one ellipse. Regions above
    SPLIT_WORK_PIXELS are cut on a shrunk copy (necks scale with the objects)."""
    from scipy import ndimage

    whole = [((slice(0, region.shape[0]), slice(0, region.shape[1])), region)]
    scale = min(1.0, float(np.sqrt(SPLIT_WORK_PIXELS / region.size)))
    small_region, small_core = region, core
    if scale < 1.0:
        size = (max(1, round(region.shape[1] * scale)), max(1, round(region.shape[0] * scale)))
        small_region = cv2.resize(region.astype(np.uint8) * 255, size, interpolation=cv2.INTER_AREA) > 127
        small_core = (cv2.resize(core.astype(np.uint8) * 255, size, interpolation=cv2.INTER_AREA) > 127) & small_region
    pieces = _pieces(small_region, small_core)
    if pieces is None:
        return whole
    if scale < 1.0:
        pieces = _enlarge_labels(pieces, region)
    result = []
    for index, where in enumerate(ndimage.find_objects(pieces), start=1):
        if where is not None:
            result.append((where, pieces[where] == index))
    # Touching round things (coins, pills, cells) cut into round-ish pieces;
    # a long object with a waist or a hub (a propeller, a bone, a dumbbell)
    # would be cut into long thin halves: keep such an object whole.
    if len(result) > 1 and any(_elongation(piece) > MAX_PIECE_ELONGATION for _, piece in result):
        return whole
    return result or whole


def _elongation(mask: np.ndarray) -> float:
    """Length over width of a region (from its second moments)."""
    ys, xs = np.nonzero(mask)
    if len(xs) < 5:
        return 1.0
    cov = np.cov(np.vstack([xs, ys]).astype(np.float64))
    low, high = np.linalg.eigvalsh(cov)
    return float(np.sqrt(max(high, 1e-9) / max(low, 1e-9)))


def _pieces(region: np.ndarray, core: np.ndarray) -> Optional[np.ndarray]:
    """Label image (0 outside) of the region cut into objects, or None when it stays one."""
    from scipy import ndimage
    from skimage.morphology import h_maxima
    from skimage.segmentation import watershed

    distance = cv2.distanceTransform(np.pad(core, 1).astype(np.uint8), cv2.DIST_L2, 5)[1:-1, 1:-1]
    peak = float(distance.max())
    if peak < 2:
        return None
    markers, count = ndimage.label(h_maxima(distance, max(1.0, NECK_DEPTH * peak)))
    if count < 2:
        return None
    pieces = watershed(-distance, markers, mask=region)
    pieces = _merge_elliptic_pairs(pieces, core)
    return pieces if pieces.max() > 1 else None


def _enlarge_labels(pieces: np.ndarray, region: np.ndarray) -> np.ndarray:
    """Piece labels of a shrunk region brought back to the region's full size:
    nearest-neighbour enlargement, then region pixels left unlabelled along the
    edges take a neighbour's label."""
    labels = cv2.resize(pieces.astype(np.uint16), (region.shape[1], region.shape[0]), interpolation=cv2.INTER_NEAREST)
    labels[~region] = 0
    kernel = np.ones((3, 3), np.uint8)
    for _ in range(8):
        gaps = region & (labels == 0)
        if not gaps.any():
            break
        grown = cv2.dilate(labels, kernel)
        labels[gaps] = grown[gaps]
    return labels.astype(np.int32)


def _merge_elliptic_pairs(pieces: np.ndarray, core: np.ndarray) -> np.ndarray:
    """Repeatedly merge the two neighbouring pieces whose union fits one
    ellipse best, while that fit is >= ONE_ELLIPSE_IOU. Neighbours are judged on
    `core` pixels only, so pieces that meet only across a filled gap between
    touching objects are not neighbours."""
    for _ in range(int(pieces.max())):
        best = None
        for first, second in _neighbour_pairs(pieces, core):
            fit = ellipse_iou((pieces == first) | (pieces == second))
            if fit >= ONE_ELLIPSE_IOU and (best is None or fit > best[0]):
                best = (fit, first, second)
        if best is None:
            break
        pieces[pieces == best[2]] = best[1]
    # Renumber 1..n so find_objects gives one slice per piece.
    _, renumbered = np.unique(pieces, return_inverse=True)
    return renumbered.reshape(pieces.shape)


def _neighbour_pairs(pieces: np.ndarray, core: np.ndarray) -> List[Tuple[int, int]]:
    inner = np.where(core, pieces, 0)
    codes = []
    top = int(inner.max()) + 1
    for a, b in ((inner[:, :-1], inner[:, 1:]), (inner[:-1, :], inner[1:, :])):
        touching = (a != b) & (a > 0) & (b > 0)
        low = np.minimum(a[touching], b[touching]).astype(np.int64)
        high = np.maximum(a[touching], b[touching]).astype(np.int64)
        codes.append(low * top + high)
    unique = np.unique(np.concatenate(codes)) if codes else np.array([], np.int64)
    return [(int(code // top), int(code % top)) for code in unique]


def ellipse_iou(region: np.ndarray) -> float:
    """IoU between a boolean region and the ellipse with the same centroid and
    second moments: ~1 for discs and ellipses, lower for clumps and odd shapes."""
    if max(region.shape) > SHAPE_TEST_EDGE:
        scale = SHAPE_TEST_EDGE / max(region.shape)
        size = (max(1, round(region.shape[1] * scale)), max(1, round(region.shape[0] * scale)))
        region = cv2.resize(region.astype(np.uint8) * 255, size, interpolation=cv2.INTER_AREA) > 127
    area = int(region.sum())
    if area < 12:
        return 1.0  # too few pixels to tell shapes apart
    margin = 4
    padded = np.pad(region.astype(np.uint8), margin)
    moments = cv2.moments(padded, binaryImage=True)
    cx, cy = moments["m10"] / moments["m00"], moments["m01"] / moments["m00"]
    mu20, mu02, mu11 = (moments[key] / moments["m00"] for key in ("mu20", "mu02", "mu11"))
    spread = np.sqrt(4 * mu11**2 + (mu20 - mu02) ** 2)
    major = 2.0 * np.sqrt(max((mu20 + mu02 + spread) / 2, 0.0))
    minor = 2.0 * np.sqrt(max((mu20 + mu02 - spread) / 2, 0.0))
    angle = 0.5 * np.degrees(np.arctan2(2 * mu11, mu20 - mu02))
    # Draw on a canvas big enough for the whole ellipse, so none of it is clipped away.
    extra = int(np.ceil(max(major, minor))) + 2
    canvas = np.zeros((padded.shape[0] + 2 * extra, padded.shape[1] + 2 * extra), np.uint8)
    cv2.ellipse(canvas, ((cx + extra, cy + extra), (2 * major, 2 * minor), angle), 1, -1)
    shape = canvas[extra : extra + padded.shape[0], extra : extra + padded.shape[1]] > 0
    ellipse_area = int(canvas.sum())
    inter = int((shape & (padded > 0)).sum())
    union = ellipse_area + area - inter
    return inter / union if union else 0.0
