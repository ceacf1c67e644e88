"""Colour vocabulary: HSV ranges for segmenting by name, and reference colours for naming.

Internal module for colors.py. Hue follows OpenCV's convention: 0-179 (degrees
divided by 2); saturation and value are 0-255. Ranges whose low hue is above
the high hue wrap around (red spans 170..179 and 0..8).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Dict, List, Tuple

from .._cv2 import cv2
import numpy as np

HsvRange = Tuple[Tuple[int, int, int], Tuple[int, int, int]]

# Names whose regions are judged by the whole object they lie on (segment_color):
# a shaded side of an orange sweet is red by hue, but the sweet is orange.
CHROMATIC = ("red", "orange", "yellow", "green", "cyan", "blue", "purple", "magenta")

# Chromatic colours need some saturation and brightness, otherwise every dark
# or greyish pixel would be "red" or "blue" by hue alone. The hue bands tile
# the circle without overlap, so a pure colour belongs to exactly one name.
NAMED_RANGES: Dict[str, List[HsvRange]] = {
    # Red needs more saturation and light than other hues: the dark rims and
    # shadows of brown and orange things, and dusky pinks, are red by hue alone.
    "red": [((170, 100, 80), (179, 255, 255)), ((0, 100, 80), (5, 255, 255))],
    "orange": [((6, 90, 90), (20, 255, 255))],
    "yellow": [((21, 70, 90), (34, 255, 255))],
    "green": [((35, 50, 40), (85, 255, 255))],
    "cyan": [((86, 60, 60), (100, 255, 255))],
    "blue": [((101, 70, 40), (128, 255, 255))],
    "purple": [((129, 50, 40), (147, 255, 255))],
    "magenta": [((148, 70, 60), (169, 255, 255))],
    "pink": [((151, 25, 150), (179, 120, 255)), ((0, 25, 150), (8, 120, 255))],
    "brown": [((0, 80, 30), (25, 255, 150)), ((175, 80, 30), (179, 255, 150))],
    "white": [((0, 0, 210), (179, 30, 255))],
    "gray": [((0, 0, 60), (179, 40, 209))],
    "black": [((0, 0, 0), (179, 255, 59))],
}
ALIASES = {
    "grey": "gray",
    "violet": "purple",
    "aqua": "cyan",
    "turquoise": "cyan",
    "gold": "yellow",
    "golden": "yellow",
    "silver": "gray",
    "crimson": "red",
    "navy": "blue",
    "lime": "green",
    "fuchsia": "magenta",
    "tan": "brown",
}

# Reference colours (RGB) for naming a measured colour. Several prototypes may
# carry one name (a grass green and a leaf green are both "green"). Naming is
# by perceptual distance (CIEDE2000 in CIE Lab) to each prototype as it would
# look under the measured colour's light: shade or light a surface and its
# lightness changes while its hue and its chroma relative to lightness stay
# about the same. So a shaded yellow (a lemon in the shadow) stays yellow
# instead of becoming "olive", whose chroma is far too high for its lightness;
# the difference in lightness itself counts a little (LIGHTNESS_WEIGHT), which
# keeps dark red, navy, brown, dark green and the greys apart from their
# lighter neighbours.
REFERENCES: List[Tuple[str, Tuple[int, int, int]]] = [
    ("red", (220, 30, 30)), ("red", (180, 30, 40)),
    ("dark red", (130, 15, 20)),
    ("orange", (250, 140, 20)), ("orange", (200, 110, 25)),
    ("yellow", (250, 220, 30)), ("yellow", (230, 205, 90)),
    ("olive", (128, 128, 20)),
    ("yellow green", (170, 210, 40)), ("yellow green", (205, 235, 25)),
    ("green", (40, 170, 50)), ("green", (100, 150, 55)), ("green", (70, 130, 45)),
    ("light green", (150, 230, 130)),
    ("dark green", (20, 90, 30)), ("dark green", (50, 72, 15)),
    ("teal", (0, 128, 128)),
    ("cyan", (40, 210, 220)),
    ("light blue", (130, 180, 240)),
    ("blue", (30, 70, 210)), ("blue", (25, 95, 165)),
    ("navy", (20, 30, 110)),
    ("purple", (130, 50, 170)),
    ("magenta", (220, 40, 200)),
    ("pink", (245, 160, 190)),
    ("brown", (130, 80, 40)), ("brown", (95, 60, 35)),
    ("beige", (225, 205, 165)),
    ("white", (250, 250, 250)),
    ("light gray", (195, 195, 195)),
    ("gray", (128, 128, 128)),
    ("dark gray", (64, 64, 64)),
    ("black", (10, 10, 10)),
]
REFERENCE_RGB: Dict[str, Tuple[int, int, int]] = {}
for _name, _rgb in REFERENCES:
    REFERENCE_RGB.setdefault(_name, _rgb)  # the first (purest) prototype of each name
_REFERENCE_NAMES = [name for name, _ in REFERENCES]


def _lab(rgb: np.ndarray) -> np.ndarray:
    """Nx3 RGB (0-255) -> Nx3 CIE Lab with L in 0-100 (float conversion: no 8-bit rescaling)."""
    pixels = (np.asarray(rgb, dtype=np.float32).reshape(-1, 1, 3) / 255.0)
    return cv2.cvtColor(pixels, cv2.COLOR_RGB2LAB).reshape(-1, 3)


@lru_cache(maxsize=1)
def _reference_lab() -> np.ndarray:
    # Computed on first use: the first cv2.cvtColor call of a process costs
    # ~0.1 s of OpenCV start-up, which should not land on every kernel start.
    return _lab(np.array([rgb for _, rgb in REFERENCES]))


# CIEDE2000 units per unit of lightness difference, added to the distance to
# the relit prototype. Tuned (0.1-0.15 all pass; 0.15 chosen) on a hand-made
# list of colours and their names (tests/test_color_names.py) together with the
# real-photo patches (tests/real_photos.py): lower lets a dark brown be called
# orange, higher lets a shaded yellow be called olive again.
LIGHTNESS_WEIGHT = 0.15


def relit(references: np.ndarray, lightness: float) -> np.ndarray:
    """Lab prototypes as they would look at `lightness`: L set to it, a and b
    scaled by the same ratio (chroma keeps its proportion to lightness, as
    under a change of light)."""
    ratio = lightness / np.maximum(references[:, 0], 1e-3)
    return np.column_stack([np.full(len(references), lightness), references[:, 1] * ratio, references[:, 2] * ratio])


def perceptual_distance(lab: np.ndarray, references: np.ndarray) -> np.ndarray:
    """Distance from one Lab colour to each Lab reference: CIEDE2000 to the
    reference relit to the colour's lightness, plus LIGHTNESS_WEIGHT x the
    lightness difference."""
    from skimage.color import deltaE_ciede2000

    colour = np.asarray(lab, dtype=np.float64).reshape(1, 3)
    shifted = relit(np.asarray(references, dtype=np.float64), float(colour[0, 0]))
    chromatic = deltaE_ciede2000(np.repeat(colour, len(references), axis=0), shifted)
    return chromatic + LIGHTNESS_WEIGHT * np.abs(colour[0, 0] - references[:, 0])


def known_names() -> List[str]:
    """Every colour name segment_color accepts (aliases included), sorted."""
    return sorted(set(NAMED_RANGES) | set(ALIASES))


def ranges_for(name: str) -> List[HsvRange]:
    """HSV ranges for a colour name (case-insensitive, aliases allowed); KeyError if unknown."""
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    return NAMED_RANGES[key]


def name_of(rgb: Tuple[int, int, int]) -> str:
    """The nearest reference colour name for an RGB triple."""
    lab = _lab(np.array([rgb]))[0]
    distances = perceptual_distance(lab, _reference_lab())
    return _REFERENCE_NAMES[int(np.argmin(distances))]


def in_ranges(hsv: np.ndarray, ranges: List[HsvRange]) -> np.ndarray:
    """Boolean HxW mask of pixels inside any of the ranges (hue wrap-around handled)."""
    mask = np.zeros(hsv.shape[:2], dtype=bool)
    for (h_low, s_low, v_low), (h_high, s_high, v_high) in ranges:
        if h_low <= h_high:
            pieces = [((h_low, s_low, v_low), (h_high, s_high, v_high))]
        else:
            pieces = [((h_low, s_low, v_low), (179, s_high, v_high)), ((0, s_low, v_low), (h_high, s_high, v_high))]
        for low, high in pieces:
            mask |= cv2.inRange(hsv, np.array(low, np.uint8), np.array(high, np.uint8)) > 0
    return mask
