"""Reading printed text with the Tesseract OCR engine (the `tesseract` program, run as a subprocess).

Public: ocr (words with boxes and confidences), read_text (plain text; by
default the neural reader first, Tesseract when choose_reader says so).
"""

from __future__ import annotations

import csv
import functools
import io
import os
import shutil
import subprocess
from typing import Any, Dict, List, Tuple

from .._cv2 import cv2
import numpy as np

from ..images import ImageLike
from . import neural
from ._checks import choice, fraction, image_rgb, text
from ._results import detection

# Page segmentation modes (tesseract --psm) by the layout they expect.
PAGE_MODES = {"auto": "3", "block": "6", "line": "7", "word": "8", "sparse": "11"}
TIMEOUT_SECONDS = 180
# Tesseract reads best with capital letters ~20-40 px tall; small images are
# enlarged by this factor first (boxes are mapped back).
UPSCALE_BELOW = 1000
UPSCALE = 2.0
# Deskewing: page photos rotated up to MAX_SKEW degrees are turned upright
# when their text lines are SKEW_GAIN times sharper at the best angle.
MAX_SKEW = 15.0
SKEW_GAIN = 2.0
SKEW_WORK_EDGE = 800
# A page reading with at least this much confident text (letters x confidence)
# is taken as it is; below it, mode "auto" also tries the photo as scattered text.
ENOUGH_TEXT = 60.0
REGION_WORK_EDGE = 1024  # text lines are searched on at most this longer edge
LINE_HEIGHT = 50.0       # each text line is enlarged to about this height before reading
CLEAN_PAGE_CONFIDENCE = 0.85  # a page read with this mean confidence is taken as it is, however short
LINE_MARGINS = (0.25, 0.4)  # margins tried around a text line, as a share of its height
# Text running up or down (a box's side, a spine, a label on its side): when the
# upright reading finds little, the page turned a quarter each way is read too
# and a turn wins when it holds TURN_GAIN times the confident text and at least
# ENOUGH_TEXT / 4 (a few real words, not texture read as letters).
TURN_GAIN = 2.0
# read_text(method="auto"): when the neural reading goes to Tesseract (choose_reader).
# Tuned on the real-photo ocr + scene-text cases (python/tests/real_photos*.py,
# bench/results/vision-real-photos.md): the page there reads 13 lines, signs 1-8;
# the turned page the neural reader misses reads 0 letters, the shortest sign 5.
PAGE_LINES = 10
MIN_LETTERS = 3
SURE_LINE = 0.5


def ocr(
    image: ImageLike, box_threshold: float = 0.3, mode: str = "auto", language: str = "eng"
) -> List[Dict[str, Any]]:
    """Read printed text word by word, with each word's box and confidence (Tesseract OCR).

    When to use: documents, screenshots, signs, labels, receipts, forms; when
    you need WHERE words are (to match a label to a value, find a field, draw
    boxes) or how sure the reading is. For just the text use read_text.
    Photos are prepared before reading: a page tilted up to 15 degrees is
    deskewed, small images are enlarged; in mode "auto", when the page
    reading finds little text (a sign, a label, a street photo), the photo is
    also read as scattered text, binarised with a local threshold, turned a
    quarter each way (text running up or down the side of a box or a spine),
    and line by line from text lines found as rows of letter-shaped regions
    (MSER); the most confident readings are kept. Handwriting, curved or
    decorative type (script and outlined display lettering on packaging) and
    text under ~10 px tall read poorly; crop and enlarge the region for small
    text.

    Args:
        image: a file path, RGB numpy array, PIL image or video frame dict.
        box_threshold: minimum word confidence in [0, 1] (default 0.3);
            lower it (0) to get every guess (photos give noise words), raise
            it (0.8) for only clear words.
        mode: the layout to expect: "auto" (pages and photos, default: the
            only mode that also tries scattered text and text lines, ~2-4x
            slower on photos with little text), "block" (one
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
    words = []
    for item in _recognise(fn, pixels, psm, languages, mode == "auto"):
        if item["confidence"] < threshold:
            continue
        words.append(detection(item["text"], item["confidence"], item["box"], width, height,
                               text=item["text"], line=item["line"], block=item["block"]))
    return words


def read_text(image: ImageLike, mode: str = "auto", language: str = "eng", method: str = "auto") -> str:
    """Read all printed text in an image as plain text, keeping line breaks.

    When to use: "what does this document / sign / screenshot say", extracting
    text to search or parse. Use ocr instead when you need word positions or
    confidences.

    Args:
        image: a file path, RGB numpy array, PIL image or video frame dict.
        mode: Tesseract's layout: "auto" (pages and photos, default), "block",
            "line", "word" or "sparse" (see ocr). Pick a fixed mode for speed
            when you know the layout: "block" for a cropped label, "line" for one line.
        language: Tesseract language code(s), e.g. "eng".
        method: "auto" (default): the neural reader on the Argus server first
            (fast, good on signs, labels, shop fronts), then Tesseract when
            that reading looks like a page (10 or more lines) or is weak (fewer
            than 3 letters read with confidence): see choose_reader. With no
            server reachable, Tesseract (a note on stderr says so).
            "classical": Tesseract only, in the kernel (clean pages,
            screenshots, a rotated page). "neural": the server's reader only
            (mode and language then do not apply).

    Returns:
        The text, lines separated by "\\n" and paragraphs by blank lines;
        "" when no text is found.
    """
    fn = "read_text"
    choice(mode, fn, "mode", tuple(PAGE_MODES))
    _languages_argument(language, fn)
    return neural.by_method(method, fn, lambda: neural.text(image), lambda: _read_tesseract(image, mode, language),
                            lambda: _read_auto(image, mode, language))


def choose_reader(lines: List[Dict[str, Any]]) -> str:
    """'neural' to keep the neural reading, 'tesseract' to read again with
    Tesseract; `lines` is the neural reader's [{"text", "score", "bbox"}].
    A page (PAGE_LINES lines or more) goes to Tesseract, which reads clean
    pages fast and word-exact; so does a weak reading (fewer than MIN_LETTERS
    letters and digits in lines scored >= SURE_LINE): a turned page, faint
    or unusual type the neural reader missed."""
    if len(lines) >= PAGE_LINES:
        return "tesseract"
    sure = sum(sum(ch.isalnum() for ch in str(line.get("text", ""))) for line in lines
               if float(line.get("score", 0.0)) >= SURE_LINE)
    return "tesseract" if sure < MIN_LETTERS else "neural"


def _read_auto(image: ImageLike, mode: str, language: str) -> str:
    result = neural.call_tool("read_text", image)
    lines = result.get("lines") if isinstance(result, dict) else None
    if not isinstance(lines, list) or not isinstance(result.get("text"), str):
        raise neural.VisionToolError(f"read_text: the server answered {result!r}, expected {{'text', 'lines'}}")
    if choose_reader(lines) == "neural":
        return result["text"].strip()
    return _read_tesseract(image, mode, language)


def _read_tesseract(image: ImageLike, mode: str, language: str) -> str:
    fn = "read_text"
    psm = PAGE_MODES[choice(mode, fn, "mode", tuple(PAGE_MODES))]
    languages = _languages_argument(language, fn)
    pixels = image_rgb(image, fn)
    if min(pixels.shape[:2]) < 3:
        return ""
    words = _recognise(fn, pixels, psm, languages, mode == "auto")
    lines: List[str] = []
    last_line, last_block = None, None
    for item in words:
        if item["line"] != last_line:
            if last_block is not None and item["block"] != last_block:
                lines.append("")
            lines.append(item["text"])
        else:
            lines[-1] += " " + item["text"]
        last_line, last_block = item["line"], item["block"]
    return "\n".join(lines).strip()


def _prepare(pixels: np.ndarray) -> Tuple[np.ndarray, float]:
    """Grey image for tesseract (enlarged when small) and the enlargement factor.
    Tesseract reads capitals 20-40 px tall best; photos shrunk for the web
    have smaller text, so images under UPSCALE_BELOW px are enlarged."""
    grey = cv2.cvtColor(pixels, cv2.COLOR_RGB2GRAY)
    if max(grey.shape) < UPSCALE_BELOW:
        return cv2.resize(grey, None, fx=UPSCALE, fy=UPSCALE, interpolation=cv2.INTER_CUBIC), UPSCALE
    return grey, 1.0


def skew_angle(grey: np.ndarray) -> float:
    """The rotation (degrees, counter-clockwise) that makes a page's text lines
    horizontal, or 0.0 when there is no clear set of lines (a photo, a sign).
    Text lines make the row sums of the ink mask peaky; the angle whose
    rotation maximises their variance wins if it beats upright clearly."""
    scale = min(1.0, SKEW_WORK_EDGE / max(grey.shape))
    small = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else grey
    _, ink = cv2.threshold(small, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    if ink.mean() > 127:  # light text on a dark ground
        ink = 255 - ink
    height, width = ink.shape
    scores = {}
    for angle in np.arange(-MAX_SKEW, MAX_SKEW + 0.01, 0.5):
        matrix = cv2.getRotationMatrix2D((width / 2, height / 2), float(angle), 1.0)
        rows = cv2.warpAffine(ink, matrix, (width, height)).sum(axis=1).astype(np.float64)
        scores[float(angle)] = float(np.var(rows))
    best = max(scores, key=scores.get)
    if best == 0.0 or scores[best] < SKEW_GAIN * max(scores[0.0], 1e-9):
        return 0.0
    return best


def _rotate(grey: np.ndarray, angle: float) -> Tuple[np.ndarray, np.ndarray]:
    """`grey` rotated by `angle` degrees on an enlarged canvas (white fill) and
    the 2x3 matrix that maps rotated coordinates back to `grey`'s."""
    height, width = grey.shape
    matrix = cv2.getRotationMatrix2D((width / 2, height / 2), angle, 1.0)
    cos, sin = abs(matrix[0, 0]), abs(matrix[0, 1])
    new_w, new_h = int(height * sin + width * cos), int(height * cos + width * sin)
    matrix[0, 2] += new_w / 2 - width / 2
    matrix[1, 2] += new_h / 2 - height / 2
    border = int(np.median(np.concatenate([grey[0], grey[-1], grey[:, 0], grey[:, -1]])))
    rotated = cv2.warpAffine(grey, matrix, (new_w, new_h), flags=cv2.INTER_CUBIC, borderValue=border)
    return rotated, cv2.invertAffineTransform(matrix)


def _turned(grey: np.ndarray, turn: int) -> Tuple[np.ndarray, np.ndarray]:
    """`grey` turned a quarter (cv2.ROTATE_90_CLOCKWISE or _COUNTERCLOCKWISE)
    and the 3x3 matrix mapping the turned picture's coordinates back to
    `grey`'s (box edges exclusive, so the far edge maps to the far edge)."""
    height, width = grey.shape[:2]
    if turn == cv2.ROTATE_90_CLOCKWISE:  # (x, y) -> (height - y, x)
        back = np.array([[0.0, 1.0, 0.0], [-1.0, 0.0, float(height)], [0.0, 0.0, 1.0]])
    else:  # (x, y) -> (y, width - x)
        back = np.array([[0.0, -1.0, float(width)], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    return cv2.rotate(grey, turn), back


def _binarised(grey: np.ndarray) -> np.ndarray:
    """Local (adaptive) threshold: dark text on a light ground whatever the
    lighting, so text on a sign or a label in a photo stands out of its
    surroundings. Light text on dark grounds is inverted first."""
    block = max(15, (min(grey.shape) // 20) | 1)
    ink = cv2.adaptiveThreshold(grey, 255, cv2.ADAPTIVE_THRESH_GAUSSIAN_C, cv2.THRESH_BINARY, block, 10)
    return ink


def _parse(output: str, back: np.ndarray) -> List[Dict[str, Any]]:
    """Words of tesseract's TSV with boxes mapped through the 2x3 matrix `back`."""
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
        if not word or confidence < 0:
            continue
        corners = np.array([[left, top, 1], [right, top, 1], [right, bottom, 1], [left, bottom, 1]], float) @ back.T
        line_id = line_ids.setdefault((block, paragraph, line), len(line_ids) + 1)
        block_id = block_ids.setdefault(block, len(block_ids) + 1)
        words.append({
            "text": word, "confidence": confidence, "line": line_id, "block": block_id,
            "box": (float(corners[:, 0].min()), float(corners[:, 1].min()), float(corners[:, 0].max()), float(corners[:, 1].max())),
        })
    return words


def _quality(words: List[Dict[str, Any]]) -> float:
    """How much real text a reading holds: letters and digits of the words read
    with confidence >= 0.5 and at least 2 characters, weighted by confidence.
    Noise read from textures is short and unsure, so it adds little."""
    total = 0.0
    for word in words:
        letters = sum(ch.isalnum() for ch in word["text"])
        if word["confidence"] >= 0.5 and letters >= 2:
            total += word["confidence"] * letters
    return total


def _recognise(fn: str, pixels: np.ndarray, psm: str, languages: str, explore: bool) -> List[Dict[str, Any]]:
    """Words (text, confidence, box in `pixels`' coordinates, line, block).

    Always: the page is deskewed and small images are enlarged. With
    `explore` (mode "auto"), when the page reading finds little text, the
    image is also read as scattered text (signs, labels: --psm 11) both as is
    and binarised with a local threshold, and the reading with the most
    confident text wins; from those sparse readings only confident words
    (>= 0.5) are kept, since sparse mode also "reads" textures."""
    prepared, factor = _prepare(pixels)
    back = np.array([[1.0 / factor, 0, 0], [0, 1.0 / factor, 0]])
    angle = skew_angle(prepared)
    if angle:
        prepared, inverse = _rotate(prepared, angle)
        back = back @ np.vstack([inverse, [0, 0, 1]])
    base = ["-l", languages, "tsv"]
    words = _parse(_run(fn, prepared, ["--psm", psm, *base]), back)
    sure = [w for w in words if sum(ch.isalnum() for ch in w["text"]) >= 1]
    clean_page = len(sure) >= 3 and float(np.mean([w["confidence"] for w in sure])) >= CLEAN_PAGE_CONFIDENCE
    if not explore or _quality(words) >= ENOUGH_TEXT or clean_page:
        return words
    best, best_quality = _sparse_readings(fn, prepared, back, base, words)
    grey = cv2.cvtColor(pixels, cv2.COLOR_RGB2GRAY)
    grey_back = np.eye(3)
    # Text running up or down: the page turned a quarter each way is read too
    # (after the upright sparse readings, so an upright sign whose page reading
    # was poor is not turned: tesseract half-reads upright text turned on its
    # side). A turn that wins clearly moves the rest of the search onto it.
    turn, turn_quality, turned_page = None, best_quality, []
    for candidate in (cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_90_COUNTERCLOCKWISE):
        turned, turned_back = _turned(prepared, candidate)
        reading = _parse(_run(fn, turned, ["--psm", psm, *base]), back @ turned_back)
        quality = _quality(reading)
        if quality >= TURN_GAIN * turn_quality and quality >= ENOUGH_TEXT / 4:
            turn, turn_quality, turned_page = candidate, quality, reading
    if turn is not None:
        prepared, turned_back = _turned(prepared, turn)
        back = back @ turned_back
        grey, grey_back = _turned(grey, turn)
        best, best_quality = _sparse_readings(fn, prepared, back, base, turned_page)
    # Text lines found as rows of character-like regions, each read on its own.
    lined: List[Dict[str, Any]] = []
    for number, (x1, y1, x2, y2) in enumerate(text_lines(grey), start=1):
        zoom = min(4.0, max(1.0, LINE_HEIGHT / max(1.0, y2 - y1)))
        best_line: List[Dict[str, Any]] = []
        # Tesseract is sensitive to the margin around a line: try a tight and
        # a loose crop and keep the reading with more confident letters.
        for margin in LINE_MARGINS:
            pad = margin * (y2 - y1)
            left, top = int(max(0, x1 - pad)), int(max(0, y1 - pad))
            right, bottom = int(min(grey.shape[1], x2 + pad)), int(min(grey.shape[0], y2 + pad))
            crop = cv2.resize(grey[top:bottom, left:right], None, fx=zoom, fy=zoom, interpolation=cv2.INTER_CUBIC)
            crop_back = (grey_back @ np.array([[1.0 / zoom, 0, left], [0, 1.0 / zoom, top], [0, 0, 1]]))[:2]
            words = _parse(_run(fn, crop, ["--psm", PAGE_MODES["line"], *base]), crop_back)
            # A line with one clearly read word keeps its less sure neighbours
            # (a first letter set apart, "H OTEL"); otherwise only sure words.
            floor = 0.3 if any(w["confidence"] >= 0.85 for w in words) else 0.6
            words = [w for w in words if w["confidence"] >= floor]
            if _quality(words) > _quality(best_line):
                best_line = words
        for word in best_line:
            word["line"], word["block"] = number, number
            lined.append(word)
    if best_quality < ENOUGH_TEXT / 4:
        best = []  # nothing confident: the page/sparse reading was texture noise
    return _merge_readings(best, lined)


def _sparse_readings(
    fn: str, prepared: np.ndarray, back: np.ndarray, base: List[str], page: List[Dict[str, Any]]
) -> Tuple[List[Dict[str, Any]], float]:
    """The most confident of the page reading and the scattered-text readings
    (--psm 11) of the picture as is and binarised, with its quality; from the
    sparse readings only confident words (>= 0.5) are kept, since sparse mode
    also "reads" textures."""
    best, best_quality = page, _quality(page)
    for view in (prepared, _binarised(prepared)):
        sparse = [w for w in _parse(_run(fn, view, ["--psm", PAGE_MODES["sparse"], *base]), back) if w["confidence"] >= 0.5]
        quality = _quality(sparse)
        if quality > best_quality * 1.2:
            best, best_quality = sparse, quality
    return best, best_quality


def _merge_readings(first: List[Dict[str, Any]], second: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """Words of both readings; where two boxes overlap, the word with more
    confident letters wins. Reading order: top to bottom, then left to right."""
    def weight(word: Dict[str, Any]) -> float:
        return word["confidence"] * sum(ch.isalnum() for ch in word["text"])

    def overlap(a: tuple, b: tuple) -> float:
        w = min(a[2], b[2]) - max(a[0], b[0])
        h = min(a[3], b[3]) - max(a[1], b[1])
        if w <= 0 or h <= 0:
            return 0.0
        return w * h / max(1e-9, min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1])))

    kept = list(first)
    offset = max((w["line"] for w in first), default=0)
    for word in second:
        rivals = [k for k in kept if overlap(k["box"], word["box"]) > 0.5]
        if all(weight(word) > weight(r) for r in rivals):
            kept = [k for k in kept if k not in rivals]
            kept.append(dict(word, line=word["line"] + offset, block=word["block"] + offset))
    if not second:
        return kept
    # Reading order: rows of words (centres within half a word height), left to right.
    height = float(np.median([w["box"][3] - w["box"][1] for w in kept])) if kept else 1.0
    return sorted(kept, key=lambda w: (round((w["box"][1] + w["box"][3]) / 2 / max(1.0, height)), w["box"][0]))


def text_lines(grey: np.ndarray, limit: int = 8) -> List[Tuple[float, float, float, float]]:
    """Boxes of likely text lines in a photo: character-shaped stable regions
    (MSER) of similar height side by side, at least three in a row; the
    longest rows first. Finds signs and labels that page segmentation misses
    in a cluttered photo."""
    scale = min(1.0, REGION_WORK_EDGE / max(grey.shape))
    work = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else grey
    height, width = work.shape
    mser = cv2.MSER_create(5, 30, max(60, height * width // 50))
    _, boxes = mser.detectRegions(work)
    chars = sorted({(int(x), int(y), int(w), int(h)) for x, y, w, h in boxes
                    if 8 <= h <= height / 5 and 0.1 * h <= w <= 1.5 * h})
    if not chars:
        return []
    boxes = np.array(chars, dtype=float)
    parent = list(range(len(boxes)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, (x, y, w, h) in enumerate(boxes):  # sorted by x: stop once too far right
        for j in range(i + 1, len(boxes)):
            x2, y2, w2, h2 = boxes[j]
            if x2 > x + w + h:
                break
            # Similar sizes on one baseline band; letters with ascenders or
            # descenders (p, y, d) are up to twice as tall as x-height ones.
            shared = min(y + h, y2 + h2) - max(y, y2)
            if max(h, h2) > 2.0 * min(h, h2) or shared < 0.6 * min(h, h2):
                continue
            parent[root(i)] = root(j)
    groups: Dict[int, List[int]] = {}
    for i in range(len(boxes)):
        groups.setdefault(root(i), []).append(i)
    found = []
    for members in groups.values():
        part = boxes[members]
        distinct = len({int(x // 3) for x in part[:, 0]})  # nested MSERs of one letter count once
        if distinct < 3:
            continue
        box = (part[:, 0].min() / scale, part[:, 1].min() / scale,
               (part[:, 0] + part[:, 2]).max() / scale, (part[:, 1] + part[:, 3]).max() / scale)
        found.append((distinct, box))
    found.sort(key=lambda item: -item[0])
    return [box for _, box in found[:limit]]


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
