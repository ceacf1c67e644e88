"""Colour vocabulary: HSV ranges for segmenting by name, and reference colours for naming.

Internal module for colors.py. Hue follows OpenCV's convention: 0-179 (degrees
divided by 2); saturation and value are 0-255. Ranges whose low hue is above
the high hue wrap around (red spans 170..179 and 0..8).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Dict, List, Tuple

import cv2
import numpy as np

HsvRange = Tuple[Tuple[int, int, int], Tuple[int, int, int]]

# Chromatic colours need some saturation and brightness, otherwise every dark
# or greyish pixel would be "red" or "blue" by hue alone. The hue bands tile
# the circle without overlap, so a pure colour belongs to exactly one name.
NAMED_RANGES: Dict[str, List[HsvRange]] = {
    "red": [((170, 70, 50), (179, 255, 255)), ((0, 70, 50), (8, 255, 255))],
    "orange": [((9, 90, 90), (20, 255, 255))],
    "yellow": [((21, 70, 90), (34, 255, 255))],
    "green": [((35, 50, 40), (85, 255, 255))],
    "cyan": [((86, 60, 60), (100, 255, 255))],
    "blue": [((101, 70, 40), (128, 255, 255))],
    "purple": [((129, 50, 40), (147, 255, 255))],
    "magenta": [((148, 70, 60), (169, 255, 255))],
    "pink": [((151, 25, 150), (179, 120, 255)), ((0, 25, 150), (8, 120, 255))],
    "brown": [((0, 80, 40), (25, 255, 150)), ((175, 80, 40), (179, 255, 150))],
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

# Reference colours (RGB) for naming a measured colour: the nearest in CIE Lab wins.
REFERENCE_RGB: Dict[str, Tuple[int, int, int]] = {
    "red": (220, 30, 30),
    "dark red": (130, 15, 20),
    "orange": (250, 140, 20),
    "yellow": (250, 220, 30),
    "olive": (128, 128, 20),
    "green": (40, 170, 50),
    "dark green": (20, 90, 30),
    "teal": (0, 128, 128),
    "cyan": (40, 210, 220),
    "light blue": (130, 180, 240),
    "blue": (30, 70, 210),
    "navy": (20, 30, 110),
    "purple": (130, 50, 170),
    "magenta": (220, 40, 200),
    "pink": (245, 160, 190),
    "brown": (130, 80, 40),
    "beige": (225, 205, 165),
    "white": (250, 250, 250),
    "light gray": (195, 195, 195),
    "gray": (128, 128, 128),
    "dark gray": (64, 64, 64),
    "black": (10, 10, 10),
}
_REFERENCE_NAMES = list(REFERENCE_RGB)


@lru_cache(maxsize=1)
def _reference_lab() -> np.ndarray:
    # Computed on first use: the first cv2.cvtColor call of a process costs
    # ~0.1 s of OpenCV start-up, which should not land on every kernel start.
    return cv2.cvtColor(np.array([list(REFERENCE_RGB.values())], dtype=np.uint8), cv2.COLOR_RGB2LAB)[0].astype(
        np.float32
    )


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
    lab = cv2.cvtColor(np.array([[rgb]], dtype=np.uint8), cv2.COLOR_RGB2LAB)[0, 0].astype(np.float32)
    distances = np.linalg.norm(_reference_lab() - lab, axis=1)
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
