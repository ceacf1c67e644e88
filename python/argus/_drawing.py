"""Drawing primitives shared by the overlays: label colours, sizes that scale
with the image, and filled text tags that stay inside the image.

Internal module. Sizes are derived from the image's longer edge so a tag is
readable both on a 64 px thumbnail and on an 8000 px photo that the server
later shrinks to ~1568 px for the model.
"""

from __future__ import annotations

import colorsys
import unicodedata
from dataclasses import dataclass
from typing import Dict, Iterable, Optional, Tuple

from ._cv2 import cv2
import numpy as np

Color = Tuple[int, int, int]

# High-contrast colours (RGB) that stay distinguishable from each other and
# from typical photo content; more labels fall back to golden-ratio hues.
PALETTE: Tuple[Color, ...] = (
    (230, 25, 75),    # red
    (60, 180, 75),    # green
    (0, 130, 200),    # blue
    (255, 225, 25),   # yellow
    (245, 130, 48),   # orange
    (145, 30, 180),   # purple
    (70, 240, 240),   # cyan
    (240, 50, 230),   # magenta
    (210, 245, 60),   # lime
    (0, 128, 128),    # teal
    (170, 110, 40),   # brown
    (250, 190, 212),  # pink
    (0, 0, 128),      # navy
    (128, 128, 0),    # olive
)

CAP_HEIGHT_AT_SCALE_1 = 21.5  # pixels, measured with cv2.getTextSize
MIN_CAP_HEIGHT = 9.0          # below this Hershey glyphs blur into each other
MIN_FONT_SCALE = 0.35         # smallest scale tried before shortening the text
CAP_HEIGHT_FRACTION = 0.022   # of the longer image edge


def color_for_index(index: int) -> Color:
    """The index-th distinct colour: the palette first, then spread hues."""
    if index < len(PALETTE):
        return PALETTE[index]
    hue = (index * 0.618033988749895) % 1.0
    red, green, blue = colorsys.hsv_to_rgb(hue, 0.85, 0.95)
    return (round(red * 255), round(green * 255), round(blue * 255))


def label_colors(labels: Iterable[str]) -> Dict[str, Color]:
    """One colour per distinct label, in order of first appearance (deterministic)."""
    colors: Dict[str, Color] = {}
    for label in labels:
        if label not in colors:
            colors[label] = color_for_index(len(colors))
    return colors


def line_thickness(height: int, width: int) -> int:
    """Border/outline width in pixels for an image: 2 px up to 800 px, then ~0.25 %."""
    return max(2, round(max(height, width) / 400))


def text_color_on(background: Color) -> Color:
    """Black or white, whichever reads better on `background`."""
    red, green, blue = background
    luminance = 0.299 * red + 0.587 * green + 0.114 * blue
    return (0, 0, 0) if luminance > 150 else (255, 255, 255)


def printable(text: str) -> str:
    """`text` reduced to the ASCII that Hershey fonts can draw (accents dropped,
    other characters shown as '?')."""
    decomposed = unicodedata.normalize("NFKD", text)
    kept = []
    for char in decomposed:
        if unicodedata.combining(char):
            continue
        kept.append(char if 32 <= ord(char) < 127 else "?")
    return "".join(kept)


@dataclass
class Tag:
    """A laid-out text tag: text, font scale/thickness and the box size in pixels."""

    text: str
    scale: float
    thickness: int
    width: int
    height: int
    padding: int
    baseline: int


def _measure(text: str, scale: float) -> Tag:
    thickness = max(1, round(scale * 1.6))
    (text_width, text_height), baseline = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
    padding = max(2, round(text_height * 0.3))
    return Tag(
        text=text,
        scale=scale,
        thickness=thickness,
        width=text_width + 2 * padding,
        height=text_height + baseline + 2 * padding,
        padding=padding,
        baseline=baseline,
    )


def layout_tag(label: str, score: Optional[float], height: int, width: int) -> Optional[Tag]:
    """Lay out 'label 0.87' for an image of the given size, or None when there is
    nothing to write. If it does not fit the image width the font shrinks (down to
    MIN_FONT_SCALE), then the score is dropped, then the label is shortened with '..'."""
    label = printable(label).strip()
    score_text = f"{score:.2f}" if score is not None else ""
    full = " ".join(part for part in (label, score_text) if part)
    if not full:
        return None
    cap_height = max(MIN_CAP_HEIGHT, max(height, width) * CAP_HEIGHT_FRACTION)
    scale = cap_height / CAP_HEIGHT_AT_SCALE_1

    tag = _measure(full, scale)
    if tag.width <= width:
        return tag
    smaller = max(MIN_FONT_SCALE, scale * width / tag.width)
    tag = _measure(full, smaller)
    if tag.width <= width or not label:
        return tag
    tag = _measure(label, smaller)
    cut = len(label)
    while tag.width > width and cut > 1:
        cut -= 1
        tag = _measure(label[:cut] + "..", smaller)
    return tag


Rect = Tuple[int, int, int, int]


def tag_rect(shape: Tuple[int, ...], tag: Tag, left: int, top: int) -> Rect:
    """(left, top, right, bottom) where draw_tag will put `tag` when asked for
    (left, top): shifted as needed to stay inside an image of `shape`."""
    height, width = shape[:2]
    left = int(min(max(left, 0), max(width - tag.width, 0)))
    top = int(min(max(top, 0), max(height - tag.height, 0)))
    return left, top, min(left + tag.width, width), min(top + tag.height, height)


def rects_overlap(first: Rect, second: Rect) -> bool:
    """True when two (left, top, right, bottom) rectangles share any pixel."""
    return first[0] < second[2] and second[0] < first[2] and first[1] < second[3] and second[1] < first[3]


def draw_tag(canvas: np.ndarray, tag: Tag, left: int, top: int, color: Color) -> Rect:
    """Draw `tag` (filled `color` box, contrasting text) with its top-left corner at
    (left, top), shifted as needed to stay inside the canvas. Modifies `canvas`;
    returns the rectangle covered."""
    rect = tag_rect(canvas.shape, tag, left, top)
    left, top, right, bottom = rect
    canvas[top:bottom, left:right] = color
    origin = (left + tag.padding, top + tag.height - tag.padding - tag.baseline)
    cv2.putText(
        canvas, tag.text, origin, cv2.FONT_HERSHEY_SIMPLEX, tag.scale, text_color_on(color), tag.thickness, cv2.LINE_AA
    )
    return rect
