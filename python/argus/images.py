"""Loading and saving images: every Argus function works on RGB uint8 HxWx3 numpy arrays.

Public: load_image, save_image. Helpers for other modules and the server:
to_pil, to_png_bytes, fit_within.
"""

import io
import os
from pathlib import Path
from typing import Optional, Union

from ._cv2 import cv2
import numpy as np
from PIL import Image, ImageOps

from ._convert import array_to_rgb, pil_to_rgb, to_rgb, type_name
from ._workspace import as_path, existing_file, is_inside_cwd

# What load_image accepts, as shown in signatures. Matplotlib figures/axes and
# video frame dicts are accepted too but not named here, so that importing
# argus does not import matplotlib (~0.5 s per kernel start).
ImageLike = Union[str, os.PathLike, np.ndarray, Image.Image]

SAVE_FORMATS = {
    ".png": "PNG",
    ".jpg": "JPEG",
    ".jpeg": "JPEG",
    ".bmp": "BMP",
    ".tif": "TIFF",
    ".tiff": "TIFF",
    ".webp": "WEBP",
}
JPEG_QUALITY = 95
VIDEO_SUFFIXES = {".mp4", ".mov", ".avi", ".mkv", ".webm", ".m4v", ".3gp", ".mpg", ".mpeg", ".wmv"}


def load_image(image: ImageLike) -> np.ndarray:
    """Load an image as an RGB uint8 numpy array of shape (height, width, 3).

    Use it first on any image you are given (a file path, a PIL image, an array)
    so that every later step sees the same format.

    Args:
        image: one of
          - a file path (str or pathlib.Path), relative to the session workspace
            (the current directory). The EXIF orientation is applied, so the
            picture is upright as a phone shows it. Multi-frame files (GIF, TIFF)
            give their first frame.
          - a PIL image.
          - a numpy array: HxW (gray), HxWx3 (RGB, NOT BGR: convert cv2.imread
            output with cv2.cvtColor(x, cv2.COLOR_BGR2RGB)), HxWx4 (RGBA),
            dtype uint8, uint16 (16-bit, scaled to 8-bit), bool, or float
            (values in [0, 1], or in [0, 255]).
          - a matplotlib Figure or Axes (rendered at the figure's dpi).
          - a video frame dict {"frame": array, ...} from extract_frames_and_timestamps.

    Returns:
        A new RGB uint8 array (height, width, 3); the input is never modified or shared.
        Gray images are repeated into 3 channels; transparent pixels (alpha) are
        composited onto a WHITE background; 16-bit values v become round(v / 257).

    Raises:
        FileNotFoundError: no such file (the message lists the files that exist).
        ValueError: the file is not a readable image, or the array has an
            unsupported shape, dtype or value range.
        TypeError: `image` is of another type.
    """
    return as_rgb(image, "load_image", "image")


def as_rgb(image: ImageLike, fn: str, argument: str) -> np.ndarray:
    """load_image for other public functions: same rules, but errors name the
    calling function `fn` and its `argument` (e.g. "overlay_bounding_boxes: image ...")."""
    if isinstance(image, dict) and "frame" in image:
        image = image["frame"]
    if isinstance(image, (str, os.PathLike)):
        return _load_file(existing_file(image, fn, argument), fn)
    pixels = to_rgb(image, fn)
    if pixels is None:
        raise TypeError(
            f"{fn}: {argument} must be a file path, a numpy array, a PIL image or a "
            f"matplotlib figure, got {type_name(image)}"
        )
    return pixels


def _load_file(path: Path, fn: str) -> np.ndarray:
    """Decode an image file with Pillow (EXIF-aware), falling back to OpenCV for
    formats Pillow does not know."""
    try:
        with Image.open(path) as picture:
            picture.load()
            try:
                upright = ImageOps.exif_transpose(picture)
            except Exception:
                # A damaged EXIF block should not make a readable picture unreadable.
                upright = picture.copy()
    except Image.UnidentifiedImageError:
        upright = None
    except Image.DecompressionBombError as error:
        raise ValueError(f"{fn}: '{path}' is too large to decode safely: {error}") from None
    except (OSError, SyntaxError, ValueError) as error:
        raise ValueError(f"{fn}: '{path}' is not a readable image ({error})") from None
    if upright is not None:
        return pil_to_rgb(upright, fn)
    if path.suffix.lower() in Image.registered_extensions():
        # Pillow owns this format and could not read it: the file is damaged.
        # (OpenCV would only add libpng/libjpeg noise on stderr.)
        raise ValueError(f"{fn}: '{path}' is not a readable image (corrupt or not really {path.suffix})")

    decoded = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if decoded is None:
        hint = ""
        if path.suffix.lower() in VIDEO_SUFFIXES:
            hint = "; it looks like a video, use extract_frames_and_timestamps"
        raise ValueError(f"{fn}: '{path}' is not a readable image (unknown or corrupt format){hint}")
    if decoded.ndim == 3 and decoded.shape[2] == 3:
        decoded = cv2.cvtColor(decoded, cv2.COLOR_BGR2RGB)
    elif decoded.ndim == 3 and decoded.shape[2] == 4:
        decoded = cv2.cvtColor(decoded, cv2.COLOR_BGRA2RGBA)
    return array_to_rgb(decoded, fn)


def save_image(image: ImageLike, path: Union[str, os.PathLike]) -> str:
    """Save an image to a file and return the path written.

    Use it to keep a result (an overlay, a crop) in the session workspace.

    Args:
        image: anything load_image accepts (array, PIL image, figure, path).
        path: where to write, relative to the workspace. The format follows the
            extension: .png (lossless, the default: added when there is no
            extension), .jpg/.jpeg (quality 95), .bmp, .tif/.tiff, .webp.
            Missing parent directories inside the workspace are created.

    Returns:
        The path written, as given (plus ".png" when it had no extension).
        The file is RGB (alpha is composited onto white, as in load_image).
    """
    target = as_path(path, "save_image", "path")
    suffix = target.suffix.lower()
    if not suffix:
        target = target.with_name(target.name + ".png")
        suffix = ".png"
    if suffix not in SAVE_FORMATS:
        raise ValueError(
            f"save_image: path '{target}' has unsupported extension '{target.suffix}'; "
            f"use one of {', '.join(sorted(SAVE_FORMATS))}"
        )
    if target.is_dir():
        raise IsADirectoryError(f"save_image: path '{target}' is a directory; add a file name")
    parent = target.parent
    if not parent.is_dir():
        if not is_inside_cwd(parent):
            raise FileNotFoundError(
                f"save_image: directory '{parent}' does not exist and is outside the workspace "
                f"({Path.cwd()}); save inside the workspace"
            )
        parent.mkdir(parents=True, exist_ok=True)

    picture = Image.fromarray(as_rgb(image, "save_image", "image"), mode="RGB")
    options = {"quality": JPEG_QUALITY} if SAVE_FORMATS[suffix] == "JPEG" else {}
    picture.save(target, format=SAVE_FORMATS[suffix], **options)
    return str(target)


def to_pil(image: ImageLike) -> Image.Image:
    """An RGB PIL image from anything load_image accepts (a new image)."""
    return Image.fromarray(load_image(image), mode="RGB")


def fit_within(pixels: np.ndarray, max_edge: Optional[int]) -> np.ndarray:
    """Shrink an RGB array so its longer edge is at most `max_edge` (aspect kept,
    area resampling, which avoids aliasing). Returns the input unchanged if it fits
    or `max_edge` is None."""
    if max_edge is None:
        return pixels
    if isinstance(max_edge, bool) or not isinstance(max_edge, (int, np.integer)) or max_edge < 1:
        raise ValueError(f"max_edge must be a positive integer or None, got {max_edge!r}")
    height, width = pixels.shape[:2]
    longest = max(height, width)
    if longest <= max_edge:
        return pixels
    scale = max_edge / longest
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    return cv2.resize(pixels, size, interpolation=cv2.INTER_AREA)


def to_png_bytes(image: ImageLike, max_edge: Optional[int] = None) -> bytes:
    """PNG-encoded bytes of an image (anything load_image accepts), optionally
    shrunk so the longer edge is at most `max_edge` pixels."""
    pixels = fit_within(load_image(image), max_edge)
    buffer = io.BytesIO()
    # compress_level 3: noticeably faster than the default 6 for big images,
    # and these bytes are transient (display messages, bridge files).
    Image.fromarray(pixels, mode="RGB").save(buffer, format="PNG", compress_level=3)
    return buffer.getvalue()
