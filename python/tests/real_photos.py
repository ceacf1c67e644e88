"""The real-photo accuracy set: public photographs with truth established by looking.

Photos are in python/tests/photos/ (sources and licences: photos/SOURCES.md)
plus scikit-image's and matplotlib's sample photographs. Every case calls a
tool with its DEFAULT parameters and checks the answer a person would give.
Template cases warp a real photo by a known transform (rotation, scale), so
their truth is exact; everything else was read off the photo by eye.

Used by bench/vision_tools_accuracy.py (the real-photo table) and by
tests/test_tools_real_photos.py (regression cases for each failure class).
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any, Callable, Dict, List, Sequence, Tuple

import cv2
import numpy as np

import argus

PHOTOS = Path(__file__).resolve().parent / "photos"
GRACE_HOPPER = Path("/usr/share/matplotlib/mpl-data/sample_data/grace_hopper.jpg")


# The tools the ocr and people cases ask, by name. The bench swaps in the Argus
# server's neural tools of the same names to run the very same cases on them.
# The classical side is asked for by name: the tools' default ("auto") would go neural in a kernel.
TOOLS: Dict[str, Callable[[np.ndarray], Any]] = {
    "read_text": lambda pixels: argus.read_text(pixels, method="classical"),
    "detect_people": lambda pixels: argus.detect_people(pixels, method="classical"),
}


def photo(name: str) -> np.ndarray:
    """An RGB array of a photo in tests/photos, or of scikit-image's `skimage:<name>`."""
    if name.startswith("skimage:"):
        from skimage import data

        pixels = getattr(data, name.split(":", 1)[1])()
        return pixels if pixels.ndim == 3 else cv2.cvtColor(pixels, cv2.COLOR_GRAY2RGB)
    if name == "grace_hopper":
        return argus.load_image(str(GRACE_HOPPER))
    return argus.load_image(str(PHOTOS / name))


def iou(a: Sequence[float], b: Sequence[float]) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    inter = max(0.0, w) * max(0.0, h)
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


Result = Tuple[bool, str]


# ------------------------------------------------------------------ circles
def _circles_match(found: List[dict], truth: List[Tuple[float, float, float]], max_extra: int) -> Result:
    left = list(truth)
    extra = 0
    for c in found:
        x, y, r = c["center"][0], c["center"][1], c["radius"]
        hit = next((t for t in left if math.hypot(x - t[0], y - t[1]) < 0.4 * t[2] and abs(r - t[2]) < 0.3 * t[2]), None)
        if hit is None:
            extra += 1
        else:
            left.remove(hit)
    return (not left and extra <= max_extra), f"{len(truth) - len(left)}/{len(truth)} found, {extra} extra"


# Smarties (r ~26 px, 413x356 photo): 12 whole, a green one cut by the bottom-left
# corner and a brown one cut by the bottom edge (centres measured on a 5x zoom).
SMARTIES = [(377, 81, 26), (268, 117, 26), (387, 171, 26), (205, 211, 26), (287, 213, 26), (33, 229, 26),
            (347, 238, 26), (98, 259, 26), (151, 271, 26), (219, 306, 26), (133, 326, 26), (294, 319, 26),
            (18, 354, 26), (78, 362, 26)]


def visible_share(x: float, y: float, r: float, width: int, height: int) -> float:
    """Share of a circle's outline inside a width x height picture."""
    angles = np.linspace(0, 2 * math.pi, 720, endpoint=False)
    xs, ys = x + r * np.cos(angles), y + r * np.sin(angles)
    return float(((xs >= 0) & (xs < width) & (ys >= 0) & (ys < height)).mean())


def circles_smarties() -> Result:
    """Every sweet with at least half its outline in the picture is a circle to find
    (the two cut by the bottom edge show less than half: not required, not penalised)."""
    truth = [c for c in SMARTIES if visible_share(*c, 413, 356) >= 0.5]
    cut = [c for c in SMARTIES if visible_share(*c, 413, 356) < 0.5]
    found = [c for c in argus.detect_circles(photo("smarties.png"))
             if not any(math.hypot(c["center"][0] - x, c["center"][1] - y) < 0.5 * r for x, y, r in cut)]
    return _circles_match(found, truth, 1)


def circles_cut_by_edge() -> Result:
    """The smarties photo cropped through sweets: those with at least half their outline
    inside the crop count (the orange one at (133,326) is cut by the left edge)."""
    crop = photo("smarties.png")[60:, 120:370]
    truth = [(x - 120, y - 60, r) for x, y, r in SMARTIES if visible_share(x - 120, y - 60, r, 250, 296) >= 0.5]
    return _circles_match(argus.detect_circles(crop), truth, 1)


def circles_football() -> Result:
    """A football (r ~24 px) at a player's feet in front of a crowd: the ball must be found, the crowd not."""
    found = argus.detect_circles(photo("messi5.jpg"))
    return _circles_match(found, [(362, 311, 24)], 2)


def circles_desk() -> Result:
    """A lid, a ball and a coin on a desk next to a pencil and a lighter."""
    return _circles_match(argus.detect_circles(photo("stuff.jpg")), [(229, 60, 37), (396, 186, 57), (209, 307, 20)], 1)


def circles_basketball() -> Result:
    """A basketball held in a grey office (r ~28 px), two people in the frame."""
    return _circles_match(argus.detect_circles(photo("basketball2.png")), [(170, 105, 28)], 2)


def circles_coins() -> Result:
    found = argus.detect_circles(photo("skimage:coins"))
    return len(found) == 24, f"{len(found)} circles (24 coins)"


# ------------------------------------------------------------------ counting
def _count(name: str, truth: int, **kwargs) -> Result:
    found = argus.count_objects(photo(name), masks=False, **kwargs)
    return len(found) == truth, f"{len(found)} (truth {truth})"


def count_dark_border() -> Result:
    """Six dark propeller blades on a light box, the photo framed by a dark surround."""
    return _count("pca_test1.jpg", 6)


def count_mixed_polarity() -> Result:
    """A dark lid and pencil, a white ball and coin, a pink lighter on a grey desk:
    five objects, each truth point inside exactly one of them."""
    found = argus.count_objects(photo("stuff.jpg"), masks=False)
    truth = [(229, 60), (190, 170), (396, 186), (209, 307), (335, 400)]
    inside = [sum(o["bbox"][0] <= x <= o["bbox"][2] and o["bbox"][1] <= y <= o["bbox"][3] for o in found) for x, y in truth]
    return len(found) == 5 and inside == [1] * 5, f"{len(found)} (truth 5), objects over lid/pencil/ball/coin/lighter: {inside}"


def count_smarties() -> Result:
    """Fourteen sweets on white, two of them cut by the frame."""
    return _count("smarties.png", 14)


def count_coins() -> Result:
    return _count("skimage:coins", 24)


def count_vignetted_coins() -> Result:
    """scikit-image's coins with a strong lens vignette (corners at 35%): still 24."""
    pixels = photo("skimage:coins").astype(np.float32)
    h, w = pixels.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    d = np.hypot((xx - w / 2) / (w / 2), (yy - h / 2) / (h / 2)) / math.sqrt(2)
    found = argus.count_objects((pixels * (1 - 0.65 * d[..., None] ** 2)).astype(np.uint8), masks=False)
    return len(found) == 24, f"{len(found)} (truth 24)"


# ------------------------------------------------------------------ colour
def _segment(name: str, color: str, truth: int) -> Result:
    found = argus.segment_color(photo(name), color, masks=False)
    return len(found) == truth, f"{len(found)} {color} (truth {truth})"


def color_red_smarties() -> Result:
    """Four red sweets; the orange and brown ones (and their dark rims and shadows) are not red."""
    return _segment("smarties.png", "red", 4)


def color_blue_smarties() -> Result:
    return _segment("smarties.png", "blue", 3)


def color_green_smarties() -> Result:
    return _segment("smarties.png", "green", 3)


def color_orange_smarties() -> Result:
    return _segment("smarties.png", "orange", 2)


def color_red_lighter() -> Result:
    """No red object on the desk (the lighter is pink): shadow specks must not count."""
    found = argus.segment_color(photo("stuff.jpg"), "red", masks=False)
    return len(found) == 0, f"{len(found)} red (truth 0)"


def _patch_name(name: str, box: Tuple[int, int, int, int], wanted: Sequence[str]) -> Result:
    x1, y1, x2, y2 = box
    top = argus.dominant_colors(photo(name)[y1:y2, x1:x2], k=3)[0]["name"]
    return top in wanted, f"{top!r} (want {' / '.join(wanted)})"


def color_name_grass() -> Result:
    """The football pitch's muted green is green, not teal or olive."""
    return _patch_name("messi5.jpg", (0, 300, 150, 342), ("green", "dark green"))


def color_name_lime() -> Result:
    """A lime's skin: a muted mid green."""
    return _patch_name("fruits.jpg", (380, 160, 470, 240), ("green", "dark green"))


def color_name_sky() -> Result:
    return _patch_name("home.jpg", (20, 10, 180, 90), ("blue", "light blue", "sky blue"))


def color_name_orange_fruit() -> Result:
    return _patch_name("fruits.jpg", (100, 200, 180, 260), ("orange",))


def color_name_lemon() -> Result:
    return _patch_name("fruits.jpg", (380, 320, 480, 400), ("yellow", "light yellow"))


def color_name_leaves() -> Result:
    """Sunlit leaves behind the squirrel: a light green."""
    return _patch_name("squirrel_cls.jpg", (400, 20, 500, 90), ("green", "light green", "yellow green"))


# ------------------------------------------------------------------ OCR
def _words(text: str) -> List[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _ocr(name: str, wanted: Sequence[str], need: float, joined: bool = False) -> Result:
    """`joined`: for signs, a word counts when its letters appear in the text
    with spaces removed ("NOPARKING" reads both "no" and "parking")."""
    text = TOOLS["read_text"](photo(name))
    found = set(_words(text))
    letters = "".join(_words(text))
    hits = [w for w in wanted if w.lower() in found or (joined and len(w) >= 2 and w.lower() in letters)]
    return len(hits) >= need * len(wanted), f"{len(hits)}/{len(wanted)} words"


PAGE_WORDS = ("technical details are too complex to cover in the book itself teaching our courses we have found "
              "useful for students attempt number small implementation projects which often build one another "
              "order get them used working with real world images and challenges that these present").split()


def ocr_rotated_page() -> Result:
    """A printed page photographed rotated ~5 degrees."""
    return _ocr("imageTextR.png", PAGE_WORDS, 0.8)


def ocr_straight_page() -> Result:
    return _ocr("imageTextN.png", PAGE_WORDS, 0.8)


def ocr_product_box() -> Result:
    """A biscuit box photographed on its side: its words run up the picture, in plain,
    italic and outlined display type over a photo of biscuits."""
    return _ocr("box.png", ("bastoncini", "cookies", "almond", "pan", "ducale", "product", "italy"), 0.5, joined=True)


def ocr_parking_sign() -> Result:
    return _ocr("scenetext01.jpg", ("notice", "double", "parking", "prohibited", "all", "times"), 0.66, joined=True)


def ocr_direction_sign() -> Result:
    return _ocr("scenetext02.jpg", ("sports", "centre", "conference", "car", "parks"), 0.8, joined=True)


def ocr_shop_sign() -> Result:
    return _ocr("scenetext03.jpg", ("copy", "centre"), 1.0, joined=True)


def ocr_barrier_sign() -> Result:
    """Two small red-on-white NO PARKING signs on a street barrier."""
    return _ocr("scenetext05.jpg", ("no", "parking"), 1.0, joined=True)


def ocr_shop_front() -> Result:
    return _ocr("scenetext06.jpg", ("priory", "galleries", "ship"), 0.66, joined=True)


def ocr_hotel_sign() -> Result:
    """White capitals on a dark sign among flowers."""
    return _ocr("scenetext_segmented_word01.jpg", ("hotel",), 1.0, joined=True)


# ------------------------------------------------------------------ template matching
def _warp(image: np.ndarray, angle: float, scale: float) -> Tuple[np.ndarray, np.ndarray]:
    h, w = image.shape[:2]
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), angle, scale)
    cos, sin = abs(matrix[0, 0]), abs(matrix[0, 1])
    nw, nh = int(h * sin + w * cos), int(h * cos + w * sin)
    matrix[0, 2] += nw / 2 - w / 2
    matrix[1, 2] += nh / 2 - h / 2
    return cv2.warpAffine(image, matrix, (nw, nh), borderMode=cv2.BORDER_REFLECT), matrix


def _template_case(scene: np.ndarray, template: np.ndarray, truth: Sequence[float]) -> Result:
    found = argus.find_template(scene, template)
    best = max((iou(d["bbox"], truth) for d in found[:1]), default=0.0)
    return best >= 0.5, f"best IoU {best:.2f} of {len(found)} matches"


def _warped_crop(name: str, box: Tuple[int, int, int, int], angle: float, scale: float) -> Result:
    image = photo(name)
    x1, y1, x2, y2 = box
    scene, matrix = _warp(image, angle, scale)
    corners = np.array([[x1, y1, 1], [x2, y1, 1], [x2, y2, 1], [x1, y2, 1]], float) @ matrix.T
    truth = [corners[:, 0].min(), corners[:, 1].min(), corners[:, 0].max(), corners[:, 1].max()]
    return _template_case(scene, image[y1:y2, x1:x2], truth)


def template_box_in_scene() -> Result:
    """A biscuit box photographed alone, found in a cluttered photo (smaller, tilted, in perspective)."""
    return _template_case(photo("box_in_scene.png"), photo("box.png"), [89, 160, 285, 299])


def template_rotated_half_player() -> Result:
    """The player cut from the photo; the photo rotated 12 degrees at half size."""
    return _warped_crop("messi5.jpg", (200, 60, 330, 260), 12, 0.5)


def template_rotated_half_tower() -> Result:
    return _warped_crop("home.jpg", (330, 40, 470, 200), -12, 0.5)


def template_small_in_busy() -> Result:
    """A small chip (~40 px) on a busy circuit board, same scale."""
    image = photo("board.jpg")
    return _template_case(image, image[95:135, 85:135].copy(), [85, 95, 135, 135])


def template_next_frame() -> Result:
    """A face from one video frame found in the next (moved, slightly turned)."""
    return _template_case(photo("basketball2.png"), photo("basketball1.png")[80:140, 55:105], [50, 75, 105, 140])


# ------------------------------------------------------------------ people
def _people(name: str, truth: List[Sequence[float]]) -> Result:
    found = [d["bbox"] for d in TOOLS["detect_people"](photo(name))]
    left = list(truth)
    extra = 0
    for box in found:
        hit = next((t for t in left if iou(box, t) >= 0.3), None)
        if hit is None:
            extra += 1
        else:
            left.remove(hit)
    return not left and extra == 0, f"{len(truth) - len(left)}/{len(truth)} people, {extra} extra"


def people_footballer() -> Result:
    return _people("messi5.jpg", [[69, 59, 456, 334]])


def people_office_1() -> Result:
    """Two men; the right one is cut by the frame (no feet, half a body)."""
    return _people("basketball1.png", [[35, 80, 180, 480], [440, 20, 640, 480]])


def people_office_2() -> Result:
    return _people("basketball2.png", [[35, 80, 200, 480], [430, 20, 640, 480]])


def people_astronaut() -> Result:
    """A head-and-shoulders portrait: no legs in frame."""
    return _people("skimage:astronaut", [[120, 0, 400, 512]])


def people_grace_hopper() -> Result:
    return _people("grace_hopper", [[60, 40, 512, 600]])


def people_cameraman() -> Result:
    return _people("skimage:camera", [[100, 40, 330, 512]])


# Pedestrians in a surveillance video (OpenCV's vtest.avi, 768x576; frames by their
# index). Boxes are tight around each body, read off a gridded 1.5x zoom. A person
# must be found when at least PEDESTRIAN_REQUIRED px tall and not more than half
# hidden: detect_people's default search documents ~100 px as its smallest person,
# less a margin for boxes measured by eye. Smaller or hidden people need not be
# found, but a box on one of them is not an extra either. (box, required)
PEDESTRIAN_REQUIRED = 90
VTEST_PEOPLE = {
    "vtest_0132.jpg": [((130, 78, 147, 116), True), ((380, 184, 405, 266), True), ((419, 168, 440, 258), False),
                       ((577, 201, 612, 284), True), ((612, 225, 641, 308), True), ((597, 119, 620, 184), True),
                       ((619, 123, 647, 185), True), ((688, 118, 708, 188), True), ((750, 253, 768, 350), True)],
    "vtest_0264.jpg": [((35, 176, 62, 245), True), ((150, 145, 177, 215), True), ((310, 207, 341, 294), True),
                       ((463, 175, 485, 245), True), ((507, 241, 548, 339), True), ((613, 129, 637, 195), True),
                       ((635, 133, 657, 197), True)],
    "vtest_0792.jpg": [((219, 160, 245, 229), True), ((240, 193, 269, 268), True), ((383, 162, 408, 235), True),
                       ((432, 272, 475, 375), True), ((610, 263, 650, 371), True), ((639, 229, 673, 333), True),
                       ((655, 145, 677, 213), True)],
}


def _pedestrians(name: str) -> Result:
    """A found box is a person when that person's centre lies inside it and the box is
    0.6-2x their height (the detector's boxes carry a margin around the body)."""
    people = VTEST_PEOPLE[name]
    left = list(range(len(people)))
    extra = 0
    for found in TOOLS["detect_people"](photo(name)):
        x1, y1, x2, y2 = found["bbox"]
        fits = [i for i in left
                if x1 <= (people[i][0][0] + people[i][0][2]) / 2 <= x2 and y1 <= (people[i][0][1] + people[i][0][3]) / 2 <= y2
                and 0.6 <= (y2 - y1) / (people[i][0][3] - people[i][0][1]) <= 2.0]
        if not fits:
            extra += 1
            continue
        left.remove(min(fits, key=lambda i: abs((people[i][0][1] + people[i][0][3]) / 2 - (y1 + y2) / 2)))
    required = [i for i, (box, visible) in enumerate(people) if visible and box[3] - box[1] >= PEDESTRIAN_REQUIRED]
    missed = [i for i in required if i in left]
    return not missed and extra == 0, f"{len(required) - len(missed)}/{len(required)} people >= {PEDESTRIAN_REQUIRED} px found, {extra} extra"


def pedestrians(name: str) -> Callable[[], Result]:
    def case() -> Result:
        return _pedestrians(name)

    case.__name__ = f"people_pedestrians_{name.split('.')[0]}"
    return case


def people_none(name: str) -> Callable[[], Result]:
    def case() -> Result:
        found = TOOLS["detect_people"](photo(name))
        return not found, f"{len(found)} people (truth 0)"

    case.__name__ = f"people_none_{name.split('.')[0].replace(':', '_')}"
    return case


# ------------------------------------------------------------------ the set
CASES: Dict[str, List[Callable[[], Result]]] = {
    "circles": [circles_smarties, circles_cut_by_edge, circles_football, circles_desk, circles_basketball, circles_coins],
    "counting": [count_dark_border, count_mixed_polarity, count_smarties, count_coins, count_vignetted_coins],
    "colour": [color_red_smarties, color_blue_smarties, color_green_smarties, color_orange_smarties, color_red_lighter,
               color_name_grass, color_name_lime, color_name_sky, color_name_orange_fruit, color_name_leaves, color_name_lemon],
    "ocr": [ocr_rotated_page, ocr_straight_page, ocr_product_box, ocr_parking_sign, ocr_direction_sign,
            ocr_shop_sign, ocr_barrier_sign, ocr_shop_front, ocr_hotel_sign],
    "template": [template_box_in_scene, template_rotated_half_player, template_rotated_half_tower,
                 template_small_in_busy, template_next_frame],
    "people": [people_footballer, people_office_1, people_office_2, people_astronaut, people_grace_hopper,
               people_cameraman, people_none("smarties.png"), people_none("fruits.jpg"), people_none("robin.jpg"),
               people_none("board.jpg"), pedestrians("vtest_0132.jpg"), pedestrians("vtest_0264.jpg"),
               pedestrians("vtest_0792.jpg")],
}
