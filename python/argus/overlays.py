"""Draw detections on images: bounding boxes and segmentation masks with labels.

Public: overlay_bounding_boxes, overlay_segmentation_masks. Both return a new
RGB uint8 array (the input is never modified); pass the result to view_image to
look at it or save_image to keep it.
"""

from typing import Any, Dict, List, Sequence, Tuple

from ._cv2 import cv2
import numpy as np

from ._detections import parse_boxes, parse_masks
from ._drawing import Rect, Tag, draw_tag, label_colors, layout_tag, line_thickness, rects_overlap, tag_rect
from .images import ImageLike, as_rgb

MASK_ALPHA = 0.45  # mask colour weight: the object stays visible under the tint


def overlay_bounding_boxes(image: ImageLike, detections: Sequence[Dict[str, Any]]) -> np.ndarray:
    """Draw labelled bounding boxes on an image and return the drawing.

    Use it to check detections visually: view_image(overlay_bounding_boxes(img, dets)).

    Args:
        image: anything load_image accepts (array, PIL image, file path, ...).
        detections: a list of dicts (one dict alone is also accepted)
            {"label": str, "score": float (optional), "bbox": [x1, y1, x2, y2]}
            where (x1, y1) is the top-left corner and (x2, y2) the bottom-right
            corner in PIXELS of `image` (x to the right, y down; the box covers
            columns x1..x2-1 and rows y1..y2-1). If all four bbox values lie
            within [0, 1] (and the image is larger than 2x2) the box is taken as
            NORMALIZED (fractions of width and height) and scaled to pixels.
            Boxes reaching past the image edge are clipped to it.

    Returns:
        A new RGB uint8 array of the same size. Each distinct label gets its own
        colour; each box gets a filled tag "label score" above its top-left corner
        (or just inside/below the box when there is no room there or it would
        cover an earlier tag), sized to stay readable at any image size.

    Raises:
        ValueError: a bbox that is not 4 finite numbers, has x2 < x1 or y2 < y1,
            or lies entirely outside the image (the message names the detection).
        TypeError: detections is not a list of dicts, or a label/score has the wrong type.
    """
    canvas = as_rgb(image, "overlay_bounding_boxes", "image")
    height, width = canvas.shape[:2]
    parsed = parse_boxes(detections, height, width)

    colors = label_colors(label for _, label, _ in parsed)
    thickness = line_thickness(height, width)
    # Borders first, tags second, so no border line crosses a tag's text.
    for (x1, y1, x2, y2), label, _ in parsed:
        _draw_inner_border(canvas, x1, y1, x2, y2, thickness, colors[label])
    placed: List[Rect] = []
    for box, label, score in parsed:
        tag = layout_tag(label, score, height, width)
        if tag is not None:
            rect = _free_tag_rect(canvas.shape, tag, box, placed)
            placed.append(draw_tag(canvas, tag, rect[0], rect[1], colors[label]))
    return canvas


def _free_tag_rect(shape: Tuple[int, ...], tag: Tag, box: Tuple[int, int, int, int], placed: List[Rect]) -> Rect:
    """Where to put a box's tag: above its top-left corner, else just inside the
    top, else below the box, else inside the bottom; the first spot that fits in
    the image without covering an earlier tag (the first that fits, if all overlap)."""
    x1, y1, x2, y2 = box
    candidates = [
        (y1 - tag.height, y1 - tag.height >= 0),
        (y1, True),
        (y2, y2 + tag.height <= shape[0]),
        (y2 - tag.height, True),
    ]
    fitting = [tag_rect(shape, tag, x1, top) for top, fits in candidates if fits]
    for rect in fitting:
        if not any(rects_overlap(rect, other) for other in placed):
            return rect
    return fitting[0]


def overlay_segmentation_masks(image: ImageLike, masks: Sequence[Dict[str, Any]]) -> np.ndarray:
    """Tint segmentation masks on an image, outline them and label them.

    Use it to check segmentation results visually:
    view_image(overlay_segmentation_masks(img, masks)).

    Args:
        image: anything load_image accepts (array, PIL image, file path, ...).
        masks: a list of dicts (one dict alone is also accepted)
            {"label": str, "mask": array, "score": float (optional)}
            where "mask" has the image's height and width (HxW or HxWx1) and is
              - bool: True inside;
              - integer (e.g. 0/1 or 0/255): any non-zero value is inside;
              - float: values in [0, 1] are inside from 0.5 up; values in
                [0, 255] are inside from 127.5 up.
            Other keys (e.g. "bbox") are ignored.

    Returns:
        A new RGB uint8 array of the same size: each mask blended with its
        label's colour (45 % colour), a solid outline drawn just inside the mask
        edge, and a filled "label score" tag at the mask's most interior point.
        Pixels outside every mask are unchanged except under the tags.
        An empty mask draws nothing.

    Raises:
        ValueError: a mask whose shape differs from the image's HxW, or with
            unsupported values (the message names the mask and both shapes).
        TypeError: masks is not a list of dicts, or a mask is not a numpy array.
    """
    canvas = as_rgb(image, "overlay_segmentation_masks", "image")
    height, width = canvas.shape[:2]
    parsed = parse_masks(masks, height, width)

    colors = label_colors(label for _, label, _ in parsed)
    thickness = line_thickness(height, width)
    for region, label, _ in parsed:
        tint = np.array(colors[label], dtype=np.float32)
        blended = canvas[region].astype(np.float32) * (1.0 - MASK_ALPHA) + tint * MASK_ALPHA
        canvas[region] = np.clip(np.rint(blended), 0, 255).astype(np.uint8)
    for region, label, _ in parsed:
        canvas[_inner_outline(region, thickness)] = colors[label]
    for region, label, score in parsed:
        tag = layout_tag(label, score, height, width)
        if tag is None or not region.any():
            continue
        x, y = _interior_point(region)
        draw_tag(canvas, tag, x - tag.width // 2, y - tag.height // 2, colors[label])
    return canvas


def _draw_inner_border(
    canvas: np.ndarray, x1: int, y1: int, x2: int, y2: int, thickness: int, color: Tuple[int, int, int]
) -> None:
    """Solid border of `thickness` px drawn inside the box, so it never covers
    pixels outside the detection and never leaves the image."""
    canvas[y1 : min(y1 + thickness, y2), x1:x2] = color
    canvas[max(y2 - thickness, y1) : y2, x1:x2] = color
    canvas[y1:y2, x1 : min(x1 + thickness, x2)] = color
    canvas[y1:y2, max(x2 - thickness, x1) : x2] = color


def _inner_outline(region: np.ndarray, thickness: int) -> np.ndarray:
    """Pixels of `region` within `thickness` px of its edge (an outline that stays inside the mask)."""
    if not region.any():
        return region
    kernel = np.ones((2 * thickness + 1, 2 * thickness + 1), dtype=np.uint8)
    # Outside the image counts as outside the mask, so masks touching the
    # border are outlined there too.
    eroded = cv2.erode(region.astype(np.uint8), kernel, borderType=cv2.BORDER_CONSTANT, borderValue=0)
    return region & (eroded == 0)


def _interior_point(region: np.ndarray) -> Tuple[int, int]:
    """(x, y) of the mask pixel farthest from the mask's edge: unlike the
    centroid it is always on the mask, even for rings and C shapes."""
    padded = np.pad(region.astype(np.uint8), 1)
    distance = cv2.distanceTransform(padded, cv2.DIST_L2, 5)[1:-1, 1:-1]
    y, x = np.unravel_index(int(np.argmax(distance)), distance.shape)
    return int(x), int(y)
