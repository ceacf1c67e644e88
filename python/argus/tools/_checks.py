"""Argument checking shared by the tools: images (with a size limit) and parameters.

Internal module. Every error names the tool and the argument, states what was
expected and what was given, so a planner can fix its call in one turn instead
of getting a silent wrong answer.
"""

from __future__ import annotations

import math
import numbers
import os
from typing import Any, Iterable, Optional, Sequence

from .._cv2 import cv2
import numpy as np
from PIL import Image

from .._convert import type_name
from .._workspace import existing_file
from ..images import as_rgb

# Above this many pixels the tools refuse the image instead of working on it.
# The kernel has a 4 GiB address-space limit and several tools hold a few
# float copies of the image; 40 MP (e.g. 7300x5475) keeps the worst tool under
# ~1.5 GiB and under a minute. Larger photos must be shrunk or cut into tiles.
MAX_PIXELS = 40_000_000
MAX_MEGAPIXELS = MAX_PIXELS / 1e6


def too_large_message(fn: str, argument: str, width: int, height: int, what: str = "") -> str:
    """The error text for an image above MAX_PIXELS, with the two ways out."""
    megapixels = width * height / 1e6
    subject = f"{argument} {what}".rstrip()
    return (
        f"{fn}: {subject} is {width}x{height} = {megapixels:.1f} megapixels, above the "
        f"{MAX_MEGAPIXELS:.0f} MP limit of Argus tools. Shrink it first, e.g. "
        "small = cv2.resize(load_image(x), None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA), "
        "or run the tool on crops (tiles) and add each crop's offset to the boxes."
    )


def _check_pixel_count(fn: str, argument: str, width: int, height: int, what: str = "") -> None:
    if width * height > MAX_PIXELS:
        raise ValueError(too_large_message(fn, argument, width, height, what))


def image_rgb(image: Any, fn: str, argument: str = "image") -> np.ndarray:
    """`image` (path, array, PIL image, figure, frame dict) as RGB uint8 HxWx3.

    The size is checked BEFORE decoding or converting, so a huge file is
    refused in milliseconds instead of filling the kernel's memory.
    """
    if image is None:
        raise TypeError(
            f"{fn}: {argument} is None; pass an image (a file path, a numpy array or a PIL image), "
            "e.g. load_image('photo.jpg')"
        )
    if isinstance(image, dict) and "frame" in image:
        image = image["frame"]
    if isinstance(image, (str, os.PathLike)):
        path = existing_file(image, fn, argument)
        size = _header_size(path, fn, argument)
        if size is not None:
            _check_pixel_count(fn, argument, size[0], size[1], f"'{path}'")
    elif isinstance(image, np.ndarray):
        if image.ndim in (2, 3) and 0 in image.shape[:2]:
            raise ValueError(f"{fn}: {argument} is empty (shape {image.shape}); it has no pixels to analyse")
        if image.ndim in (2, 3):
            _check_pixel_count(fn, argument, int(image.shape[1]), int(image.shape[0]))
    elif isinstance(image, Image.Image):
        if 0 in image.size:
            raise ValueError(f"{fn}: {argument} is an empty PIL image (size {image.size})")
        _check_pixel_count(fn, argument, image.size[0], image.size[1])
    elif isinstance(image, (list, tuple)):
        raise TypeError(
            f"{fn}: {argument} must be ONE image (path, numpy array or PIL image), got a {type_name(image)} "
            f"of {len(image)} items; call the tool once per image"
        )
    return as_rgb(image, fn, argument)


def _header_size(path: os.PathLike, fn: str, argument: str) -> Optional[tuple]:
    """(width, height) read from the file header without decoding pixels, or
    None when Pillow cannot identify the file (as_rgb then reports it)."""
    try:
        with Image.open(path) as picture:
            return picture.size
    except Image.DecompressionBombError as error:
        # Pillow refuses to even open it (above ~179 MP): certainly above our limit.
        raise ValueError(
            f"{fn}: {argument} '{path}' is far above the {MAX_MEGAPIXELS:.0f} MP limit of Argus tools ({error}); "
            "cut it into tiles with an image tool outside Argus, or open it with PIL after raising "
            "PIL.Image.MAX_IMAGE_PIXELS and shrink it with Image.reduce(4) before using the tools"
        ) from None
    except Exception:
        return None


def gray(rgb: np.ndarray) -> np.ndarray:
    """Luminance (uint8 HxW) of an RGB uint8 image."""
    return cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)


def _is_real(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def number(
    value: Any,
    fn: str,
    name: str,
    low: Optional[float] = None,
    high: Optional[float] = None,
    low_inclusive: bool = True,
) -> float:
    """`value` as a finite float within [low, high]; TypeError/ValueError naming `name`."""
    if not _is_real(value):
        raise TypeError(f"{fn}: {name} must be a number, got {type_name(value)} {value!r}")
    result = float(value)
    if not math.isfinite(result):
        raise ValueError(f"{fn}: {name} must be a finite number, got {value!r}")
    below = low is not None and (result < low if low_inclusive else result <= low)
    if below or (high is not None and result > high):
        low_text = "-inf" if low is None else f"{low:g}"
        high_text = "inf" if high is None else f"{high:g}"
        bracket = "[" if low_inclusive else "("
        raise ValueError(f"{fn}: {name} must lie in {bracket}{low_text}, {high_text}], got {value!r}")
    return result


def fraction(value: Any, fn: str, name: str) -> float:
    """A score threshold or other fraction in [0, 1]."""
    return number(value, fn, name, 0.0, 1.0)


def integer(
    value: Any, fn: str, name: str, low: Optional[int] = None, high: Optional[int] = None
) -> int:
    """`value` as an int within [low, high] (numpy integers accepted, floats like 3.0 refused)."""
    if not isinstance(value, numbers.Integral) or isinstance(value, bool):
        raise TypeError(f"{fn}: {name} must be an integer, got {type_name(value)} {value!r}")
    result = int(value)
    if (low is not None and result < low) or (high is not None and result > high):
        low_text = "-inf" if low is None else str(low)
        high_text = "inf" if high is None else str(high)
        raise ValueError(f"{fn}: {name} must be an integer in [{low_text}, {high_text}], got {value!r}")
    return result


def optional_integer(
    value: Any, fn: str, name: str, low: Optional[int] = None, high: Optional[int] = None
) -> Optional[int]:
    """None, or an integer within [low, high]."""
    return None if value is None else integer(value, fn, name, low, high)


def optional_number(
    value: Any, fn: str, name: str, low: Optional[float] = None, high: Optional[float] = None
) -> Optional[float]:
    """None, or a number within [low, high]."""
    return None if value is None else number(value, fn, name, low, high)


def choice(value: Any, fn: str, name: str, options: Sequence[str]) -> str:
    """One of `options` (case-insensitive), returned lower-case."""
    if not isinstance(value, str):
        raise TypeError(f"{fn}: {name} must be one of {list(options)}, got {type_name(value)} {value!r}")
    lowered = value.strip().lower()
    if lowered not in options:
        raise ValueError(f"{fn}: {name} must be one of {list(options)}, got {value!r}")
    return lowered


def text(value: Any, fn: str, name: str) -> str:
    """A non-empty string."""
    if not isinstance(value, str):
        raise TypeError(f"{fn}: {name} must be a string, got {type_name(value)} {value!r}")
    if not value.strip():
        raise ValueError(f"{fn}: {name} must be a non-empty string")
    return value


def string_list(value: Any, fn: str, name: str) -> list:
    """A non-empty list of non-empty strings (a single string becomes a list of one)."""
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)) or not value:
        raise TypeError(f"{fn}: {name} must be a non-empty list of strings, got {type_name(value)} {value!r}")
    for index, item in enumerate(value):
        if not isinstance(item, str) or not item.strip():
            raise TypeError(f"{fn}: {name}[{index}] must be a non-empty string, got {item!r}")
    return [item.strip() for item in value]


def size_range(
    min_size: Any, max_size: Any, fn: str, names: Iterable[str] = ("min_size", "max_size")
) -> tuple:
    """Checked (min, max) pixel sizes; either may be None; min <= max."""
    low_name, high_name = tuple(names)
    low = optional_integer(min_size, fn, low_name, 1)
    high = optional_integer(max_size, fn, high_name, 1)
    if low is not None and high is not None and high < low:
        raise ValueError(f"{fn}: {high_name} ({high}) must be >= {low_name} ({low})")
    return low, high


def frame_list(frames: Any, fn: str, minimum: int = 1) -> list:
    """Video frames (arrays, PIL images, paths or {"frame": ...} dicts from
    extract_frames_and_timestamps) as RGB arrays that all have one size."""
    if isinstance(frames, np.ndarray) and frames.ndim == 4:
        frames = list(frames)
    if not isinstance(frames, (list, tuple)):
        raise TypeError(
            f"{fn}: frames must be a list of images, e.g. the result of extract_frames_and_timestamps(...), "
            f"got {type_name(frames)}"
        )
    if len(frames) < minimum:
        raise ValueError(f"{fn}: frames must hold at least {minimum} image(s), got {len(frames)}")
    result = [image_rgb(frame, fn, f"frames[{index}]") for index, frame in enumerate(frames)]
    first = result[0].shape
    for index, frame in enumerate(result):
        if frame.shape != first:
            raise ValueError(
                f"{fn}: frames[{index}] is {frame.shape[1]}x{frame.shape[0]} but frames[0] is "
                f"{first[1]}x{first[0]}; all frames must have the same size"
            )
    return result
