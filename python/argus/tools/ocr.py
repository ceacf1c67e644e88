"""Reading printed text with the Tesseract OCR engine (the `tesseract` program, run as a subprocess).

Public: ocr (words with boxes and confidences), read_text (plain text).
"""

from __future__ import annotations

import csv
import functools
import io
import os
import shutil
import subprocess
from typing import Any, Dict, List, Tuple

import cv2
import numpy as np

from ..images import ImageLike
from ._checks import choice, fraction, image_rgb, text
from ._results import detection

# Page segmentation modes (tesseract --psm) by the layout they expect.
PAGE_MODES = {"auto": "3", "block": "6", "line": "7", "word": "8", "sparse": "11"}
TIMEOUT_SECONDS = 180
# Tesseract reads best with capital letters ~20-40 px tall; small images are
# enlarged by this factor first (boxes are mapped back).
UPSCALE_BELOW = 1000
UPSCALE = 2.0


def ocr(
    image: ImageLike, box_threshold: float = 0.3, mode: str = "auto", language: str = "eng"
) -> List[Dict[str, Any]]:
    """Read printed text word by word, with each word's box and confidence (Tesseract OCR).

    When to use: documents, screenshots, signs, labels, receipts, forms; when
    you need WHERE words are (to match a label to a value, find a field, draw
    boxes) or how sure the reading is. For just the text use read_text.
    Handwriting, curved or very stylised text and text under ~10 px tall read
    poorly; crop and enlarge the region for small text, and rotate pages to
    upright first.

    Args:
        image: a file path, RGB numpy array, PIL image or video frame dict.
        box_threshold: minimum word confidence in [0, 1] (default 0.3);
            use 0 to get every guess, 0.8 for only clear words.
        mode: the layout to expect: "auto" (pages, default), "block" (one
            uniform block of text), "line" (a single line), "word" (a single
            word), "sparse" (scattered text such as signs, charts, maps).
        language: Tesseract language code(s), e.g. "eng" or "eng+deu"; only
            installed languages work (the error lists them).

    Returns:
        A list of {"label": word, "text": word, "score": float (confidence 0-1),
        "bbox": [x1, y1, x2, y2] (pixels), "line": int, "block": int} in
        reading order. Words with the same "line" number are on one text line
        (join them with spaces); "block" numbers paragraphs/columns.

    Example:
        words = ocr("receipt.jpg")
        lines = {}
        for w in words:
            lines.setdefault(w["line"], []).append(w["text"])
        print("\\n".join(" ".join(ws) for ws in lines.values()))
    """
    fn = "ocr"
    threshold = fraction(box_threshold, fn, "box_threshold")
    psm = PAGE_MODES[choice(mode, fn, "mode", tuple(PAGE_MODES))]
    languages = _languages_argument(language, fn)
    pixels = image_rgb(image, fn)
    height, width = pixels.shape[:2]
    if min(height, width) < 3:
        return []
    prepared, factor = _prepare(pixels)
    output = _run(fn, prepared, ["--psm", psm, "-l", languages, "tsv"])

    words = []
    line_ids: Dict[Tuple[int, int, int], int] = {}
    block_ids: Dict[int, int] = {}
    for row in csv.DictReader(io.StringIO(output), delimiter="\t", quoting=csv.QUOTE_NONE):
        if row.get("level") != "5":
            continue
        word = (row.get("text") or "").strip()
        try:
            confidence = float(row["conf"]) / 100.0
            left, top = int(row["left"]), int(row["top"])
            right, bottom = left + int(row["width"]), top + int(row["height"])
            block, paragraph, line = int(row["block_num"]), int(row["par_num"]), int(row["line_num"])
        except (KeyError, TypeError, ValueError):
            continue  # a malformed row (tesseract versions differ): skip it, keep the rest
        if not word or confidence < 0 or confidence < threshold:
            continue
        line_id = line_ids.setdefault((block, paragraph, line), len(line_ids) + 1)
        block_id = block_ids.setdefault(block, len(block_ids) + 1)
        box = (left / factor, top / factor, right / factor, bottom / factor)
        words.append(detection(word, confidence, box, width, height, text=word, line=line_id, block=block_id))
    return words


def read_text(image: ImageLike, mode: str = "auto", language: str = "eng") -> str:
    """Read all printed text in an image as plain text, keeping line breaks (Tesseract OCR).

    When to use: "what does this document / sign / screenshot say", extracting
    text to search or parse. Use ocr instead when you need word positions or
    confidences.

    Args:
        image: a file path, RGB numpy array, PIL image or video frame dict.
        mode: "auto" (pages, default), "block", "line", "word" or "sparse" (see ocr).
        language: Tesseract language code(s), e.g. "eng".

    Returns:
        The text, lines separated by "\\n" and paragraphs by blank lines;
        "" when no text is found.
    """
    fn = "read_text"
    psm = PAGE_MODES[choice(mode, fn, "mode", tuple(PAGE_MODES))]
    languages = _languages_argument(language, fn)
    pixels = image_rgb(image, fn)
    if min(pixels.shape[:2]) < 3:
        return ""
    prepared, _ = _prepare(pixels)
    return _run(fn, prepared, ["--psm", psm, "-l", languages]).strip()


def _prepare(pixels: np.ndarray) -> Tuple[np.ndarray, float]:
    """Grey image for tesseract (enlarged when small) and the enlargement factor."""
    grey = cv2.cvtColor(pixels, cv2.COLOR_RGB2GRAY)
    if max(grey.shape) < UPSCALE_BELOW:
        return cv2.resize(grey, None, fx=UPSCALE, fy=UPSCALE, interpolation=cv2.INTER_CUBIC), UPSCALE
    return grey, 1.0


def _run(fn: str, grey: np.ndarray, arguments: List[str]) -> str:
    """Run tesseract on a grey image (PNG on stdin) and return its stdout."""
    program = shutil.which("tesseract")
    if program is None:
        raise RuntimeError(f"{fn}: the tesseract program is not installed (Debian package tesseract-ocr)")
    ok, encoded = cv2.imencode(".png", grey)
    if not ok:
        raise RuntimeError(f"{fn}: could not encode the image for tesseract")
    # One thread: tesseract's OpenMP threads fight each other on a busy
    # machine and are ~3x slower than a single thread.
    environment = dict(os.environ, OMP_THREAD_LIMIT="1")
    try:
        finished = subprocess.run(
            [program, "stdin", "stdout", *arguments],
            input=encoded.tobytes(),
            capture_output=True,
            timeout=TIMEOUT_SECONDS,
            env=environment,
        )
    except subprocess.TimeoutExpired:
        raise TimeoutError(
            f"{fn}: tesseract took longer than {TIMEOUT_SECONDS} s on a {grey.shape[1]}x{grey.shape[0]} image "
            "and was stopped; crop the text region or shrink the image"
        ) from None
    if finished.returncode != 0:
        message = finished.stderr.decode("utf-8", errors="replace").strip()
        raise RuntimeError(f"{fn}: tesseract failed (exit {finished.returncode}): {message[-500:]}")
    return finished.stdout.decode("utf-8", errors="replace")


def _languages_argument(language: Any, fn: str) -> str:
    """A checked "eng" / "eng+deu" string: every part must be installed."""
    value = text(language, fn, "language").strip()
    if shutil.which("tesseract") is None:
        raise RuntimeError(f"{fn}: the tesseract program is not installed (Debian package tesseract-ocr)")
    installed = installed_languages()
    missing = [part for part in value.split("+") if part not in installed]
    if missing:
        raise ValueError(
            f"{fn}: language {', '.join(repr(m) for m in missing)} is not installed; "
            f"installed: {', '.join(sorted(installed)) or 'none'}"
        )
    return value


@functools.lru_cache(maxsize=1)
def installed_languages() -> frozenset:
    """Language codes tesseract can use (asked once per kernel)."""
    program = shutil.which("tesseract")
    if program is None:
        return frozenset()
    try:
        listing = subprocess.run([program, "--list-langs"], capture_output=True, timeout=30, text=True)
    except (OSError, subprocess.TimeoutExpired):
        return frozenset()
    lines = (listing.stdout or "").splitlines()
    # The first line is a header ("List of available languages in ...").
    return frozenset(line.strip() for line in lines[1:] if line.strip() and " " not in line.strip())
