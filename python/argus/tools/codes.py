"""Reading QR codes and barcodes (ZBar through pyzbar), with their locations.

Public: read_qr_codes, read_barcodes.
"""

from __future__ import annotations

from typing import Any, Dict, List

from .._cv2 import cv2
import numpy as np

from ..images import ImageLike
from ._checks import gray, image_rgb
from ._results import detection, reading_order

# Below this longer edge, codes are also tried at 2x: ZBar needs ~2 px per module.
UPSCALE_BELOW = 1600


def read_qr_codes(image: ImageLike) -> List[Dict[str, Any]]:
    """Find and decode every QR code in an image.

    When to use: reading URLs, ticket/product ids or text stored in QR codes
    (labels, posters, screens, documents). Codes must be reasonably sharp and
    flat; tilted codes are fine, strongly curved or blurred ones may fail (try
    a crop around the code, which also makes small codes larger).

    Args:
        image: a file path, RGB numpy array, PIL image or video frame dict.

    Returns:
        A list of {"label": "QRCODE", "score": 1.0, "bbox": [x1, y1, x2, y2],
        "data": str (the decoded text), "type": "QRCODE",
        "polygon": [[x, y], ...] (the code's corners in pixels)},
        top to bottom. Empty list when no code can be decoded.
    """
    return _decode(image, "read_qr_codes", qr_only=True)


def read_barcodes(image: ImageLike) -> List[Dict[str, Any]]:
    """Find and decode every barcode in an image: 1D codes (EAN-13, EAN-8,
    UPC-A, UPC-E, Code 128, Code 39, Code 93, Interleaved 2 of 5, Codabar,
    DataBar) and QR codes.

    When to use: reading product numbers (EAN/UPC on packaging), shipping and
    inventory labels, or any code whose kind you do not know. Bars must run
    roughly straight across the code; a slightly defocused code is sharpened
    and shrunk before the call gives up (crop around a small code to help).

    Args:
        image: a file path, RGB numpy array, PIL image or video frame dict.

    Returns:
        A list of {"label": type, "score": 1.0, "bbox": [x1, y1, x2, y2],
        "data": str, "type": str (e.g. "EAN13", "CODE128", "QRCODE"),
        "polygon": [[x, y], ...]}, top to bottom. Empty list when nothing can be decoded.
    """
    return _decode(image, "read_barcodes", qr_only=False)


def _decode(image: Any, fn: str, qr_only: bool) -> List[Dict[str, Any]]:
    pixels = gray(image_rgb(image, fn))
    height, width = pixels.shape
    try:
        from pyzbar import pyzbar
    except Exception as error:  # ImportError, or the zbar shared library missing
        raise RuntimeError(f"{fn}: the ZBar decoder (python3-pyzbar) is not available: {error}") from None
    symbols = [pyzbar.ZBarSymbol.QRCODE] if qr_only else None

    found: Dict[tuple, Dict[str, Any]] = {}
    for view, factor in _views(pixels):
        for symbol in pyzbar.decode(view, symbols=symbols):
            data = symbol.data.decode("utf-8", errors="replace")
            polygon = [[round(p.x / factor), round(p.y / factor)] for p in symbol.polygon]
            rect = symbol.rect
            box = (rect.left / factor, rect.top / factor, (rect.left + rect.width) / factor, (rect.top + rect.height) / factor)
            # The same code read from several views counts once (same type, text and place).
            key = (symbol.type, data, round(box[0] / 16), round(box[1] / 16))
            if key not in found:
                if rect.height <= 1:  # 1D codes report a 1 px tall scan line; use the polygon's extent
                    ys = [p[1] for p in polygon] or [box[1]]
                    box = (box[0], min(ys), box[2], max(max(ys), min(ys) + 1))
                found[key] = detection(symbol.type, 1.0, box, width, height, data=data, type=symbol.type, polygon=polygon)
        if found:
            break  # the plain view read something: the others would only repeat it
    return reading_order(list(found.values()))


def _views(pixels: np.ndarray):
    """The image as ZBar sees best: as is, enlarged (small codes), binarised
    (low contrast), sharpened and shrunk (defocused codes). Views are tried
    in this order until one reads something."""
    yield pixels, 1.0
    if max(pixels.shape) < UPSCALE_BELOW:
        yield cv2.resize(pixels, None, fx=2.0, fy=2.0, interpolation=cv2.INTER_CUBIC), 2.0
    _, binary = cv2.threshold(cv2.GaussianBlur(pixels, (3, 3), 0), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    yield binary, 1.0
    # A defocused or shaken phone shot: sharpen (unsharp mask, two strengths),
    # and shrink (blur shrinks with the image, the bars stay countable), then
    # binarise each, before giving up.
    for sigma, amount in ((2.0, 1.5), (4.0, 3.0)):
        soft = cv2.GaussianBlur(pixels, (0, 0), sigma)
        sharp = cv2.addWeighted(pixels, 1.0 + amount, soft, -amount, 0)
        yield sharp, 1.0
        _, sharp_binary = cv2.threshold(sharp, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        yield sharp_binary, 1.0
    for factor in (0.75, 0.5):
        if min(pixels.shape) * factor >= 40:
            small = cv2.resize(pixels, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
            yield small, factor
            _, small_binary = cv2.threshold(small, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
            yield small_binary, factor
