"""Scenes with known ground truth for the vision-tool tests and bench/vision_tools_accuracy.py.

Every generator is deterministic (seeded) and returns the image together with
the answer a tool should give. The tests at the bottom check the generators
themselves (a wrong generator would make every accuracy number meaningless).
"""

from __future__ import annotations

import unittest
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

FONT_CANDIDATES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf",
)

# ------------------------------------------------------------------ discs


def touching_discs(count: int, seed: int, size: Tuple[int, int] = (600, 800)) -> Tuple[np.ndarray, int]:
    """Grey image of light discs (radius 12-29 px) on a dark noisy background,
    each disc tangent to at least one other (one clump). Returns (image, number placed)."""
    rng = np.random.default_rng(seed)
    height, width = size
    image = np.full(size, 40, np.uint8)
    placed: List[Tuple[float, float, int]] = []
    tries = 0
    while len(placed) < count and tries < 50_000:
        tries += 1
        radius = int(rng.integers(12, 30))
        if placed:
            cx, cy, cr = placed[int(rng.integers(len(placed)))]
            angle = rng.uniform(0, 2 * np.pi)
            x, y = cx + (cr + radius) * np.cos(angle), cy + (cr + radius) * np.sin(angle)
        else:
            x, y = rng.uniform(200, width - 200), rng.uniform(200, height - 200)
        if not (radius + 2 <= x < width - radius - 2 and radius + 2 <= y < height - radius - 2):
            continue
        if any(np.hypot(x - px, y - py) < radius + pr - 0.5 for px, py, pr in placed):
            continue
        placed.append((x, y, radius))
    for x, y, radius in placed:
        cv2.circle(image, (int(round(x)), int(round(y))), radius, 200, -1, cv2.LINE_AA)
    noisy = image + rng.normal(0, 8, size)
    return np.clip(noisy, 0, 255).astype(np.uint8), len(placed)


# ------------------------------------------------------------------ coloured squares

PURE_COLORS: Dict[str, Tuple[int, int, int]] = {
    "red": (220, 30, 30),
    "orange": (250, 140, 20),
    "yellow": (245, 215, 30),
    "green": (40, 170, 50),
    "cyan": (40, 210, 220),
    "blue": (30, 70, 210),
    "purple": (130, 50, 170),
    "magenta": (220, 40, 200),
    "white": (250, 250, 250),
    "black": (15, 15, 15),
}
# Names that share hues with the target are not used as its distractors
# (orange next to red is a fair test of neither).
NEIGHBOURS = {"red": {"orange", "magenta"}, "orange": {"red", "yellow"}, "yellow": {"orange"},
              "purple": {"magenta", "blue"}, "magenta": {"purple", "red"}, "blue": {"purple", "cyan"},
              "cyan": {"blue", "green"}, "green": {"cyan"}}


def colored_squares(
    target: str, count: int, distractors: int, seed: int, size: Tuple[int, int] = (600, 800)
) -> Tuple[np.ndarray, int]:
    """RGB image on a light grey background with `count` squares of `target`
    and `distractors` squares of other colours, none touching, each colour
    jittered by +-8 per channel plus pixel noise. Returns (image, count)."""
    rng = np.random.default_rng(seed)
    height, width = size
    image = np.zeros((height, width, 3), np.uint8)
    image[:] = (200, 200, 200)
    others = [name for name in PURE_COLORS if name != target and name not in NEIGHBOURS.get(target, ())]
    wanted = [target] * count + [others[i % len(others)] for i in range(distractors)]
    rng.shuffle(wanted)
    boxes: List[Tuple[int, int, int]] = []
    for name in wanted:
        for _ in range(2000):
            side = int(rng.integers(20, 50))
            x, y = int(rng.integers(2, width - side - 2)), int(rng.integers(2, height - side - 2))
            if all(x + side + 4 < bx or bx + bs + 4 < x or y + side + 4 < by or by + bs + 4 < y for bx, by, bs in boxes):
                break
        else:
            raise RuntimeError("no room left for another square; use fewer squares")
        boxes.append((x, y, side))
        color = np.clip(np.array(PURE_COLORS[name]) + rng.integers(-8, 9, 3), 0, 255)
        cv2.rectangle(image, (x, y), (x + side, y + side), tuple(int(c) for c in color), -1)
    noisy = image.astype(np.int16) + rng.normal(0, 4, image.shape)
    return np.clip(noisy, 0, 255).astype(np.uint8), count


# ------------------------------------------------------------------ QR codes and barcodes


def qr_code(text: str, module: int = 8, quiet: int = 4) -> np.ndarray:
    """A QR code for `text` drawn by OpenCV's own encoder (cv2.QRCodeEncoder),
    `module` px per module, with a white quiet zone. Grey uint8."""
    encoder = cv2.QRCodeEncoder_create() if hasattr(cv2, "QRCodeEncoder_create") else cv2.QRCodeEncoder.create()
    modules = encoder.encode(text)
    if modules is None or modules.size == 0:
        raise ValueError(f"OpenCV could not encode {text!r}")
    big = cv2.resize(modules, None, fx=module, fy=module, interpolation=cv2.INTER_NEAREST)
    pad = quiet * module
    return cv2.copyMakeBorder(big, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=255)


EAN_L = ["0001101", "0011001", "0010011", "0111101", "0100011", "0110001", "0101111", "0111011", "0110111", "0001011"]
EAN_G = ["0100111", "0110011", "0011011", "0100001", "0011101", "0111001", "0000101", "0010001", "0001001", "0010111"]
EAN_R = ["1110010", "1100110", "1101100", "1000010", "1011100", "1001110", "1010000", "1000100", "1001000", "1110100"]
EAN_PARITY = ["LLLLLL", "LLGLGG", "LLGGLG", "LLGGGL", "LGLLGG", "LGGLLG", "LGGGLL", "LGLGLG", "LGLGGL", "LGGLGL"]


def ean13_check_digit(first12: str) -> str:
    """The EAN-13 check digit of 12 digits (weights 1, 3, 1, 3, ... from the left)."""
    total = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(first12))
    return str((10 - total % 10) % 10)


def ean13(first12: str, module: int = 3, height: int = 120) -> Tuple[np.ndarray, str]:
    """An EAN-13 barcode drawn bar by bar from the standard's encoding tables.
    Returns (grey image, the full 13-digit code)."""
    digits = first12 + ean13_check_digit(first12)
    parity = EAN_PARITY[int(digits[0])]
    bits = "101"
    for digit, kind in zip(digits[1:7], parity):
        bits += (EAN_L if kind == "L" else EAN_G)[int(digit)]
    bits += "01010"
    for digit in digits[7:]:
        bits += EAN_R[int(digit)]
    bits += "101"
    quiet = 11 * module
    image = np.full((height + 2 * module * 4, len(bits) * module + 2 * quiet), 255, np.uint8)
    for index, bit in enumerate(bits):
        if bit == "1":
            x = quiet + index * module
            image[module * 4 : module * 4 + height, x : x + module] = 0
    return image, digits


def paste(canvas: np.ndarray, patch: np.ndarray, x: int, y: int) -> Tuple[int, int, int, int]:
    """Copy `patch` (grey or RGB) onto an RGB canvas at (x, y); returns its box."""
    if patch.ndim == 2:
        patch = np.repeat(patch[:, :, None], 3, axis=2)
    canvas[y : y + patch.shape[0], x : x + patch.shape[1]] = patch
    return x, y, x + patch.shape[1], y + patch.shape[0]


# ------------------------------------------------------------------ text pages

WORDS = (
    "vision agents read documents count coins track people across frames measure contours find circles decode "
    "barcodes and describe scenes with careful honest reports about every result they produce while planning "
    "each step quickly the seven brown foxes jumped over twelve lazy dogs near the quiet river bank during autumn "
    "evenings numbers like 2024 and 31415 appear beside names such as Alice Bob Carol plus invoice total amount due"
).split()


def font_path() -> str:
    """A TrueType font that exists on this machine (DejaVu Sans, else Liberation Sans)."""
    for candidate in FONT_CANDIDATES:
        if Path(candidate).is_file():
            return candidate
    raise unittest.SkipTest("no DejaVu or Liberation TrueType font installed")


def text_page(
    seed: int, words: int = 120, size: Tuple[int, int] = (1024, 768), pixels: int = 24
) -> Tuple[np.ndarray, List[str]]:
    """A white page (width, height = size) of random words in black, rendered
    with PIL's FreeType at `pixels` px. Returns (grey image, the words drawn, in order)."""
    rng = np.random.default_rng(seed)
    chosen = [WORDS[i] for i in rng.integers(0, len(WORDS), words)]
    font = ImageFont.truetype(font_path(), pixels)
    page = Image.new("L", size, 255)
    draw = ImageDraw.Draw(page)
    x, y = 40, 40
    drawn: List[str] = []
    for word in chosen:
        advance = draw.textlength(word + " ", font=font)
        if x + advance > size[0] - 40:
            x, y = 40, y + int(pixels * 1.6)
        if y + pixels > size[1] - 40:
            break
        draw.text((x, y), word, font=font, fill=0)
        drawn.append(word)
        x += advance
    return np.array(page), drawn


# ------------------------------------------------------------------ people, blobs, templates, video


def silhouette(canvas: np.ndarray, x: int, top: int, height: int, color: Tuple[int, int, int]) -> Tuple[int, int, int, int]:
    """Draw a standing person's silhouette (head, torso, arms, legs) centred on x
    with its head at `top`; returns the body's box."""
    s = height / 180.0

    def at(px: float, py: float) -> Tuple[int, int]:
        return int(round(x + px * s)), int(round(top + py * s))

    cv2.circle(canvas, at(0, 14), int(12 * s), color, -1, cv2.LINE_AA)
    cv2.ellipse(canvas, at(0, 30), (int(7 * s), int(6 * s)), 0, 0, 360, color, -1)
    cv2.fillPoly(canvas, [np.array([at(-20, 34), at(20, 34), at(16, 100), at(-16, 100)], np.int32)], color, cv2.LINE_AA)
    for side in (-1, 1):
        arm = [at(side * 18, 36), at(side * 27, 40), at(side * 24, 98), at(side * 17, 96)]
        leg = [at(side * 2, 98), at(side * 16, 98), at(side * 14, 178), at(side * 4, 178)]
        cv2.fillPoly(canvas, [np.array(arm, np.int32)], color, cv2.LINE_AA)
        cv2.fillPoly(canvas, [np.array(leg, np.int32)], color, cv2.LINE_AA)
        cv2.ellipse(canvas, at(side * 11, 178), (int(8 * s), int(3 * s)), 0, 0, 360, color, -1)
    return at(-28, 0)[0], top, at(28, 0)[0], top + height


def people_scene(count: int, seed: int, size: Tuple[int, int] = (600, 900)) -> Tuple[np.ndarray, List[Tuple[int, int, int, int]]]:
    """Dark standing silhouettes (200-300 px tall) side by side on a light
    gradient background. Returns (RGB image, their boxes)."""
    rng = np.random.default_rng(seed)
    height, width = size
    image = np.zeros((height, width, 3), np.uint8)
    image[:] = np.linspace(170, 230, width)[None, :, None].astype(np.uint8)
    slot = width / count
    boxes = []
    for index in range(count):
        tall = int(rng.integers(200, 300))
        centre = int(slot * index + slot / 2)
        boxes.append(silhouette(image, centre, height - 60 - tall, tall, (40, 40, 50)))
    noisy = image.astype(np.int16) + rng.normal(0, 6, image.shape)
    return np.clip(noisy, 0, 255).astype(np.uint8), boxes


def blob_scene(count: int, seed: int, size: Tuple[int, int] = (600, 800)) -> Tuple[np.ndarray, List[Tuple[float, float, float]]]:
    """Soft bright spots (Gaussian profiles, radius 4-20 px) on a dark noisy
    background, well apart. Returns (grey image, [(x, y, radius)])."""
    rng = np.random.default_rng(seed)
    height, width = size
    field = np.zeros(size, np.float64)
    spots: List[Tuple[float, float, float]] = []
    ys, xs = np.mgrid[0:height, 0:width]
    while len(spots) < count:
        radius = float(rng.uniform(4, 20))
        x, y = float(rng.uniform(40, width - 40)), float(rng.uniform(40, height - 40))
        if any(np.hypot(x - sx, y - sy) < 3 * (radius + sr) for sx, sy, sr in spots):
            continue
        spots.append((x, y, radius))
        sigma = radius / np.sqrt(2)
        field += 150 * np.exp(-((xs - x) ** 2 + (ys - y) ** 2) / (2 * sigma**2))
    noisy = 30 + field + rng.normal(0, 5, size)
    return np.clip(noisy, 0, 255).astype(np.uint8), spots


def template_scene(
    icon: np.ndarray, count: int, seed: int, size: Tuple[int, int] = (600, 800)
) -> Tuple[np.ndarray, List[Tuple[int, int, int, int]]]:
    """`count` copies of an RGB icon and as many different distractor patches
    (the icon flipped upside down and colour-swapped) on a textured background.
    Returns (RGB image, boxes of the copies)."""
    rng = np.random.default_rng(seed)
    height, width = size
    background = rng.normal(128, 20, (height // 8, width // 8, 3))
    image = np.clip(cv2.resize(background, (width, height), interpolation=cv2.INTER_CUBIC), 0, 255).astype(np.uint8)
    distractor = icon[::-1, :, ::-1].copy()
    side_y, side_x = icon.shape[:2]
    taken: List[Tuple[int, int, int, int]] = []
    copies: List[Tuple[int, int, int, int]] = []
    for index in range(2 * count):
        for _ in range(5000):
            x, y = int(rng.integers(0, width - side_x)), int(rng.integers(0, height - side_y))
            box = (x, y, x + side_x, y + side_y)
            if all(box[2] + 4 < o[0] or o[2] + 4 < box[0] or box[3] + 4 < o[1] or o[3] + 4 < box[1] for o in taken):
                break
        else:
            raise RuntimeError("no room for another patch")
        taken.append(box)
        patch = icon if index < count else distractor
        image[y : y + side_y, x : x + side_x] = patch
        if index < count:
            copies.append(box)
    return image, copies


def moving_squares(
    count: int, frames: int, seed: int, size: Tuple[int, int] = (240, 320)
) -> Tuple[List[np.ndarray], List[List[Tuple[int, int, int, int]]]]:
    """A fixed textured background with `count` textured squares (crops of
    scikit-image's astronaut photo, brightened) moving in straight lines
    (8-14 px per frame) in separate horizontal lanes. Returns (frames, per
    frame the squares' boxes, in the same object order every frame)."""
    from skimage import data

    rng = np.random.default_rng(seed)
    height, width = size
    background = np.clip(cv2.resize(rng.normal(110, 25, (height // 6, width // 6, 3)), (width, height)), 0, 255)
    background = background.astype(np.uint8)
    photo = data.astronaut()
    lane = height // count
    movers = []
    for index in range(count):
        side = int(min(lane - 8, 30))
        speed = float(rng.uniform(8, 14)) * (1 if index % 2 == 0 else -1)
        start = 10.0 if speed > 0 else float(width - side - 10)
        y, x = int(rng.integers(0, 400)), int(rng.integers(0, 400))
        patch = cv2.resize(photo[y : y + 100, x : x + 100], (side, side), interpolation=cv2.INTER_AREA)
        # Far from the background's mid grey, so every object differs clearly from it.
        patch = np.where(patch.mean(axis=2, keepdims=True) < 110, patch // 3, 150 + patch // 3).astype(np.uint8)
        movers.append((index * lane + (lane - side) // 2, side, start, speed, patch))
    images, boxes = [], []
    for t in range(frames):
        frame = background.copy()
        frame_boxes = []
        for top, side, start, speed, patch in movers:
            x = int(round(start + speed * t))
            frame[top : top + side, x : x + side] = patch
            frame_boxes.append((x, top, x + side, top + side))
        images.append(frame)
        boxes.append(frame_boxes)
    return images, boxes


def iou(first: Sequence[float], second: Sequence[float]) -> float:
    """Intersection over union of two [x1, y1, x2, y2] boxes."""
    width = min(first[2], second[2]) - max(first[0], second[0])
    height = min(first[3], second[3]) - max(first[1], second[1])
    inter = max(0.0, width) * max(0.0, height)
    union = (first[2] - first[0]) * (first[3] - first[1]) + (second[2] - second[0]) * (second[3] - second[1]) - inter
    return inter / union if union > 0 else 0.0


# ------------------------------------------------------------------ self-checks


class SceneGeneratorTest(unittest.TestCase):
    def test_discs_are_all_placed_and_touching(self) -> None:
        for count in (1, 7, 30):
            image, placed = touching_discs(count, seed=count)
            self.assertEqual(placed, count)
            self.assertEqual(image.dtype, np.uint8)

    def test_ean13_check_digit_matches_known_codes(self) -> None:
        # Published EAN-13s: 4006381333931 (Stabilo pen) and 5901234123457 (GS1 example).
        self.assertEqual(ean13_check_digit("400638133393"), "1")
        self.assertEqual(ean13_check_digit("590123412345"), "7")
        image, code = ean13("590123412345")
        self.assertEqual(code, "5901234123457")
        self.assertEqual(image.shape[1], 95 * 3 + 2 * 33)

    def test_qr_encoder_is_available(self) -> None:
        self.assertTrue(hasattr(cv2, "QRCodeEncoder_create") or hasattr(cv2, "QRCodeEncoder"))
        code = qr_code("argus")
        self.assertEqual(code.dtype, np.uint8)
        self.assertEqual(set(np.unique(code)), {0, 255})

    def test_squares_count_and_page_words(self) -> None:
        image, count = colored_squares("blue", 5, 10, seed=1)
        self.assertEqual((image.shape, count), ((600, 800, 3), 5))
        page, words = text_page(seed=1)
        self.assertGreater(len(words), 80)
        self.assertLess(page.min(), 50)
