"""In-memory conversions to Argus's one image type: an RGB uint8 HxWx3 numpy array.

Internal module. `images.load_image` is the public entry point; this module holds
the rules for numpy arrays, PIL images and matplotlib figures so that every
public function (view, overlays, bridge) converts the same way.
"""

from __future__ import annotations

import io
import sys
from typing import Any

import numpy as np
from PIL import Image

# Transparent pixels are composited onto white: a planner looking at a logo or
# a cut-out should see the shape, and white is what image viewers show.
BACKGROUND = 255.0


def type_name(obj: Any) -> str:
    """Short readable type name for error messages, e.g. 'int' or 'PIL.Image.Image'."""
    cls = type(obj)
    module = cls.__module__
    if module in ("builtins", "__main__"):
        return cls.__qualname__
    return f"{module}.{cls.__qualname__}"


def matplotlib_figure(obj: Any) -> Any | None:
    """The matplotlib Figure behind `obj` (a Figure, an Axes, any artist, or a
    numpy array of Axes from `plt.subplots`), or None when `obj` is not matplotlib.

    matplotlib is never imported here: if the kernel has not imported it, `obj`
    cannot be a matplotlib object, and importing it would cost ~0.5 s.
    """
    figure_module = sys.modules.get("matplotlib.figure")
    if figure_module is None:
        return None
    Figure = figure_module.Figure
    if isinstance(obj, Figure):
        return obj
    if isinstance(obj, np.ndarray) and obj.dtype == object and obj.size > 0:
        first = obj.flat[0]
        figure = getattr(first, "figure", None)
        return figure if isinstance(figure, Figure) else None
    artist_module = sys.modules.get("matplotlib.artist")
    if artist_module is not None and isinstance(obj, artist_module.Artist):
        figure = obj.figure
        if isinstance(figure, Figure):
            return figure
    return None


def figure_to_rgb(figure: Any) -> np.ndarray:
    """Render a matplotlib Figure to an RGB uint8 array at the figure's own dpi.

    savefig works with every backend (inline, Agg, none), unlike reading the
    canvas buffer, which needs an Agg canvas that has already been drawn.
    """
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=figure.dpi, facecolor="white")
    buffer.seek(0)
    with Image.open(buffer) as picture:
        return pil_to_rgb(picture, "figure")


def pil_to_rgb(picture: Image.Image, fn: str = "load_image") -> np.ndarray:
    """PIL image of any mode → RGB uint8 HxWx3 (a new array).

    16-bit and 32-bit modes go through the numpy rules so they are scaled, not
    clipped; alpha is composited onto white.
    """
    mode = picture.mode
    if mode in ("I;16", "I;16L", "I;16B", "I;16N"):
        return array_to_rgb(np.asarray(picture).astype(np.uint16), fn)
    if mode == "I":
        # Pillow opens 16-bit PNG/TIFF files as 32-bit mode "I"; values that fit
        # 16 bits are treated as 16-bit data (full range scaled to 0..255).
        values = np.asarray(picture)
        if values.size and values.min() >= 0 and values.max() <= 65535:
            values = values.astype(np.uint16)
        return array_to_rgb(values, fn)
    if mode == "F":
        return array_to_rgb(np.asarray(picture), fn)
    if mode == "1":
        return array_to_rgb(np.asarray(picture, dtype=bool), fn)
    if mode in ("RGBA", "LA", "PA", "La", "RGBa") or (
        mode == "P" and "transparency" in picture.info
    ):
        return array_to_rgb(np.asarray(picture.convert("RGBA")), fn)
    if mode != "RGB":
        picture = picture.convert("RGB")
    return np.array(picture, dtype=np.uint8)


def _scale_to_uint8(values: np.ndarray, fn: str) -> np.ndarray:
    """Map an array of pixel values of any numeric dtype onto 0..255 uint8.

    Rules (chosen so that a wrong guess is an error, not a dark or white picture):
      bool              → False 0, True 255
      uint8             → unchanged
      uint16            → full 16-bit range scaled to 0..255 (value / 257)
      other integers    → must already lie in 0..255
      floats            → all in [0, 1] means 0..1 scale; else all in [0, 255] means 0..255 scale
    """
    dtype = values.dtype
    if dtype == np.uint8:
        return values
    if dtype == bool:
        return values.astype(np.uint8) * 255
    if dtype == np.uint16:
        return ((values.astype(np.uint32) * 255 + 32767) // 65535).astype(np.uint8)
    if np.issubdtype(dtype, np.integer):
        low, high = int(values.min()), int(values.max())
        if low < 0 or high > 255:
            raise ValueError(
                f"{fn}: integer ({dtype}) image values must lie in 0..255, got {low}..{high}; "
                "rescale first, e.g. np.clip(x, 0, 255).astype(np.uint8), "
                "or use dtype uint16 for 16-bit data"
            )
        return values.astype(np.uint8)
    if np.issubdtype(dtype, np.floating):
        if not np.all(np.isfinite(values)):
            raise ValueError(f"{fn}: float image contains NaN or infinite values")
        low, high = float(values.min()), float(values.max())
        # Small tolerances absorb rounding error from arithmetic on images.
        if low >= -1e-3 and high <= 1.0 + 1e-3:
            scaled = values.astype(np.float64) * 255.0
        elif low >= -0.5 and high <= 255.5:
            scaled = values.astype(np.float64)
        else:
            raise ValueError(
                f"{fn}: float image values must lie in [0, 1] or [0, 255], got {low:g}..{high:g}; "
                "normalise first, e.g. (x - x.min()) / (x.max() - x.min())"
            )
        return np.clip(np.rint(scaled), 0, 255).astype(np.uint8)
    raise ValueError(f"{fn}: unsupported image array dtype {dtype}; use uint8, uint16, bool or float")


def array_to_rgb(array: np.ndarray, fn: str) -> np.ndarray:
    """numpy image → RGB uint8 HxWx3 (always a new array; the input is never modified).

    Accepted shapes: HxW (gray), HxWx1 (gray), HxWx2 (gray+alpha), HxWx3 (RGB),
    HxWx4 (RGBA). Channels are assumed RGB, never BGR: arrays from cv2.imread
    must be converted with cv2.cvtColor(x, cv2.COLOR_BGR2RGB) first.
    Alpha is composited onto white.
    """
    if array.dtype == object:
        raise ValueError(f"{fn}: image array has dtype object; expected a numeric pixel array")
    if array.ndim not in (2, 3) or array.size == 0:
        raise ValueError(f"{fn}: image array must have shape HxW or HxWxC, got shape {array.shape}")
    if array.ndim == 3 and array.shape[2] not in (1, 2, 3, 4):
        hint = ""
        if array.shape[0] in (1, 3, 4):
            hint = "; it looks channel-first, use np.transpose(x, (1, 2, 0))"
        raise ValueError(
            f"{fn}: image array must have 1, 2, 3 or 4 channels last (HxWxC), got shape {array.shape}{hint}"
        )
    pixels = _scale_to_uint8(np.asarray(array), fn)
    if pixels.ndim == 2:
        pixels = pixels[:, :, None]
    channels = pixels.shape[2]
    if channels in (2, 4):
        color, alpha = pixels[:, :, :-1], pixels[:, :, -1:]
        weight = alpha.astype(np.float32) / 255.0
        blended = color.astype(np.float32) * weight + BACKGROUND * (1.0 - weight)
        pixels = np.clip(np.rint(blended), 0, 255).astype(np.uint8)
        channels -= 1
    if channels == 1:
        pixels = np.repeat(pixels, 3, axis=2)
    # Copy so the caller never shares memory with the input (uint8 RGB input
    # would otherwise come back as the same buffer).
    return np.array(pixels, dtype=np.uint8, order="C", copy=True)


def to_rgb(obj: Any, fn: str) -> np.ndarray | None:
    """In-memory object (numpy array, PIL image, matplotlib figure/axes) → RGB uint8,
    or None when `obj` is none of those (the caller then reports the type)."""
    if isinstance(obj, Image.Image):
        return pil_to_rgb(obj, fn)
    figure = matplotlib_figure(obj)
    if figure is not None:
        return figure_to_rgb(figure)
    if isinstance(obj, np.ndarray):
        return array_to_rgb(obj, fn)
    return None
