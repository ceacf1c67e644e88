"""Accuracy and speed of Argus's kernel-side vision tools (python/argus/tools).

For every tool it runs a set of cases with known answers (scikit-image's
photographs and scenes generated with known ground truth, see
python/tests/test_tools_scenes.py) and prints one table row:

  tool | cases | metric: precision / recall, or exact-match rate | time per call on a 1024x768 image

Detections count as matches by IoU >= 0.5 with a true box (or, for circles and
blobs, a centre within 30% of the true radius); counts are exact matches.
describe and classify need a vision model behind the Argus server, so they
are listed without numbers.

A second table runs the real-photo set (python/tests/real_photos.py and
real_photos_everyday.py: public photographs from Debian and npm packages,
truth established by looking; sources and licences in
python/tests/photos/SOURCES.md), every tool with its default parameters: per
family the cases, and for the classical tools and, given a running Argus, its
neural tools side by side, the pass rate and the seconds per call
(bench/real_photo_table.py; written to bench/results/vision-real-photos.md).
`--real` prints only that table.

    /usr/bin/python3 bench/vision_tools_accuracy.py [--real] [--argus-url URL --token TOKEN]
"""

from __future__ import annotations

import collections
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Callable, List, Sequence, Tuple

import cv2
import numpy as np

PYTHON_DIR = Path(__file__).resolve().parents[1] / "python"
sys.path.insert(0, str(PYTHON_DIR))

from skimage import data  # noqa: E402

import argus  # noqa: E402
from tests.test_tools_scenes import (  # noqa: E402
    PURE_COLORS,
    blob_scene,
    colored_squares,
    ean13,
    iou,
    moving_squares,
    paste,
    people_scene,
    qr_code,
    template_scene,
    text_page,
    touching_discs,
)

GRACE_HOPPER = Path("/usr/share/matplotlib/mpl-data/sample_data/grace_hopper.jpg")
WIDTH, HEIGHT = 1024, 768
Box = Sequence[float]


class Tally:
    """True positives, false positives and false negatives over many images."""

    def __init__(self) -> None:
        self.tp = self.fp = self.fn = 0

    def add(self, found: List[Box], truth: List[Box], match: Callable[[Box, Box], bool]) -> None:
        unmatched = list(truth)
        for box in found:
            hit = next((t for t in unmatched if match(box, t)), None)
            if hit is None:
                self.fp += 1
            else:
                self.tp += 1
                unmatched.remove(hit)
        self.fn += len(unmatched)

    def text(self) -> str:
        precision = self.tp / (self.tp + self.fp) if self.tp + self.fp else float("nan")
        recall = self.tp / (self.tp + self.fn) if self.tp + self.fn else float("nan")
        return f"P {precision:.2f} / R {recall:.2f} (TP {self.tp}, FP {self.fp}, FN {self.fn})"


class Exact:
    """Share of cases answered exactly."""

    def __init__(self) -> None:
        self.right = self.total = 0

    def add(self, ok: bool) -> None:
        self.right += int(bool(ok))
        self.total += 1

    def text(self) -> str:
        return f"exact {self.right}/{self.total} = {self.right / max(1, self.total):.0%}"


def by_iou(found: Box, truth: Box) -> bool:
    return iou(found, truth) >= 0.5


def contains(found: Box, truth: Box) -> bool:
    """HOG boxes carry a margin: the true body must lie (90%) inside the box."""
    width = min(found[2], truth[2]) - max(found[0], truth[0])
    height = min(found[3], truth[3]) - max(found[1], truth[1])
    return max(0, width) * max(0, height) >= 0.9 * (truth[2] - truth[0]) * (truth[3] - truth[1])


def timed(call: Callable[[], object], repeats: int = 3) -> float:
    """Median wall time of `call` in seconds (one warm-up run first)."""
    call()
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def at_bench_size(image: np.ndarray) -> np.ndarray:
    return cv2.resize(image, (WIDTH, HEIGHT), interpolation=cv2.INTER_LINEAR)


# ------------------------------------------------------------------ cases per tool


def faces() -> Tuple[str, str, float]:
    tally = Tally()
    astronaut = data.astronaut()
    face = [177, 67, 270, 160]
    cases = [(astronaut, [face]), (astronaut[:, ::-1].copy(), [[512 - face[2], face[1], 512 - face[0], face[3]]])]
    inset = data.coffee().copy()
    inset[100:356, 200:456] = cv2.resize(astronaut, (256, 256), interpolation=cv2.INTER_AREA)
    cases.append((inset, [[288, 133, 335, 180]]))
    if GRACE_HOPPER.is_file():
        cases.append((argus.load_image(str(GRACE_HOPPER)), [[155, 110, 375, 330]]))
    for name in ("coffee", "coins", "rocket", "chelsea", "immunohistochemistry", "hubble_deep_field"):
        cases.append((getattr(data, name)(), []))
    for image, truth in cases:
        tally.add([d["bbox"] for d in argus.detect_faces(image)], truth, lambda f, t: iou(f, t) >= 0.4)
    seconds = timed(lambda: argus.detect_faces(at_bench_size(astronaut)))
    return f"{len(cases)} photos ({len(cases) - 6} with a face)", tally.text(), seconds


def eyes() -> Tuple[str, str, float]:
    tally = Tally()
    crop = data.astronaut()[67:160, 177:270]
    truth = [[9, 18, 40, 49], [55, 22, 84, 50]]
    tally.add([d["bbox"] for d in argus.detect_eyes(crop)], truth, lambda f, t: iou(f, t) >= 0.3)
    big = cv2.resize(crop, None, fx=2, fy=2)
    tally.add([d["bbox"] for d in argus.detect_eyes(big)], [[v * 2 for v in t] for t in truth], lambda f, t: iou(f, t) >= 0.3)
    for name in ("coffee", "coins", "rocket"):
        tally.add([d["bbox"] for d in argus.detect_eyes(getattr(data, name)())], [], by_iou)
    seconds = timed(lambda: argus.detect_eyes(at_bench_size(data.astronaut())))
    return "astronaut face crop x1, x2 + 3 photos without people", tally.text(), seconds


def cat_faces() -> Tuple[str, str, float]:
    tally = Tally()
    chelsea = data.chelsea()
    inset = data.coffee().copy()
    inset[50:200, 100:325] = cv2.resize(chelsea, (225, 150), interpolation=cv2.INTER_AREA)
    cases = [
        (chelsea, [[85, 0, 400, 300]]),
        (chelsea[:, ::-1].copy(), [[51, 0, 366, 300]]),
        (cv2.resize(chelsea, (150, 100), interpolation=cv2.INTER_AREA), [[28, 0, 133, 100]]),
        (inset, [[142, 50, 300, 200]]),
    ]
    for name in ("coffee", "coins", "rocket", "astronaut"):
        cases.append((getattr(data, name)(), []))
    for image, truth in cases:
        tally.add([d["bbox"] for d in argus.detect_cat_faces(image)], truth, lambda f, t: iou(f, t) >= 0.4)
    seconds = timed(lambda: argus.detect_cat_faces(at_bench_size(chelsea)), repeats=1)
    return "chelsea x4 variants + 4 photos without cats", tally.text(), seconds


def people() -> Tuple[str, str, float]:
    tally = Tally()
    scenes = 0
    for seed, count in ((1, 3), (2, 4), (3, 5), (4, 4)):
        image, truth = people_scene(count, seed)
        tally.add([d["bbox"] for d in argus.detect_people(image)], truth, contains)
        scenes += 1
    for name in ("coffee", "coins", "chelsea", "rocket", "immunohistochemistry"):
        tally.add([d["bbox"] for d in argus.detect_people(getattr(data, name)())], [], contains)
    image, _ = people_scene(4, 9, size=(HEIGHT, WIDTH))
    seconds = timed(lambda: argus.detect_people(image))
    return f"{scenes} silhouette scenes + 5 photos without people", tally.text(), seconds


def circles() -> Tuple[str, str, float]:
    tally = Tally()
    exact = Exact()
    exact.add(len(argus.detect_circles(data.coins())) == 24)
    rng = np.random.default_rng(5)
    for scene in range(5):
        image = np.full((600, 800), 60, np.uint8)
        placed: List[Tuple[int, int, int]] = []
        while len(placed) < 10 + 4 * scene:
            r = int(rng.integers(14, 50))
            x, y = int(rng.integers(r + 3, 800 - r - 3)), int(rng.integers(r + 3, 600 - r - 3))
            if all(math.hypot(x - a, y - b) > r + c + 2 for a, b, c in placed):
                placed.append((x, y, r))
                cv2.circle(image, (x, y), r, int(rng.integers(140, 230)), -1, cv2.LINE_AA)
        image = np.clip(image + rng.normal(0, 6, image.shape), 0, 255).astype(np.uint8)
        found = [(c["center"][0], c["center"][1], c["radius"]) for c in argus.detect_circles(image, min_radius=10)]
        tally.add(found, placed, lambda f, t: math.hypot(f[0] - t[0], f[1] - t[1]) < 0.3 * t[2] and abs(f[2] - t[2]) < 0.2 * t[2])
        exact.add(len(found) == len(placed))
    seconds = timed(lambda: argus.detect_circles(at_bench_size(data.coins())))
    return "coins (24) + 5 drawn scenes (10-26 circles)", f"{tally.text()}; counts {exact.text()}", seconds


def blobs() -> Tuple[str, str, float]:
    tally = Tally()
    for seed, count in ((1, 10), (2, 15), (3, 20), (4, 25)):
        image, spots = blob_scene(count, seed)
        found = [(b["center"][0], b["center"][1], b["radius"]) for b in argus.detect_blobs(image, polarity="bright", box_threshold=0.2)]
        tally.add(found, spots, lambda f, t: math.hypot(f[0] - t[0], f[1] - t[1]) < 0.3 * t[2] + 1)
    image, _ = blob_scene(20, 9, size=(HEIGHT, WIDTH))
    seconds = timed(lambda: argus.detect_blobs(image))
    return "4 scenes of soft spots (10-25)", tally.text(), seconds


def count_objects() -> Tuple[str, str, float]:
    exact = Exact()
    errors = []
    exact.add(len(argus.count_objects(data.coins(), masks=False)) == 24)
    for count in range(1, 31):
        image, placed = touching_discs(count, seed=100 + count)
        found = len(argus.count_objects(image, masks=False))
        exact.add(found == placed)
        errors.append(abs(found - placed))
    seconds = timed(lambda: argus.count_objects(at_bench_size(data.coins())))
    return "coins (24) + touching discs N=1..30", f"{exact.text()}; mean |error| {statistics.mean(errors):.2f}", seconds


def count_overlapping() -> Tuple[str, str, float]:
    """Harder than the required case: discs overlapping by up to 10% of their radii."""
    exact = Exact()
    errors = []
    rng = np.random.default_rng(31)
    for count in range(2, 31, 2):
        image = np.full((600, 800), 40, np.uint8)
        placed: List[Tuple[float, float, int]] = []
        while len(placed) < count:
            r = int(rng.integers(12, 30))
            if placed:
                cx, cy, cr = placed[int(rng.integers(len(placed)))]
                a = rng.uniform(0, 2 * math.pi)
                d = (cr + r) * rng.uniform(0.9, 1.0)
                x, y = cx + d * math.cos(a), cy + d * math.sin(a)
            else:
                x, y = 400.0, 300.0
            if r + 2 <= x < 800 - r - 2 and r + 2 <= y < 600 - r - 2 and all(
                math.hypot(x - px, y - py) >= 0.9 * (r + pr) for px, py, pr in placed
            ):
                placed.append((x, y, r))
        for x, y, r in placed:
            cv2.circle(image, (round(x), round(y)), r, 200, -1, cv2.LINE_AA)
        image = np.clip(image + rng.normal(0, 8, image.shape), 0, 255).astype(np.uint8)
        found = len(argus.count_objects(image, masks=False))
        exact.add(found == count)
        errors.append(abs(found - count))
    return "discs overlapping up to 10%, N=2..30", f"{exact.text()}; mean |error| {statistics.mean(errors):.2f}", float("nan")


def segment_color() -> Tuple[str, str, float]:
    exact = Exact()
    for index, name in enumerate(PURE_COLORS):
        for seed in range(2):
            count = 2 + 5 * seed + index % 3
            image, truth = colored_squares(name, count, distractors=12, seed=1000 + 10 * index + seed)
            exact.add(len(argus.segment_color(image, name, masks=False)) == truth)
    image, _ = colored_squares("red", 8, 20, seed=5, size=(HEIGHT, WIDTH))
    seconds = timed(lambda: argus.segment_color(image, "red"))
    return f"{len(PURE_COLORS)} colours x 2 scenes of squares + distractors", exact.text(), seconds


def dominant_colors() -> Tuple[str, str, float]:
    exact = Exact()
    rng = np.random.default_rng(3)
    names = {"red": (220, 30, 30), "green": (40, 170, 50), "blue": (30, 70, 210), "yellow": (250, 220, 30), "white": (250, 250, 250), "black": (10, 10, 10)}
    for _ in range(10):
        chosen = rng.choice(list(names), 3, replace=False)
        shares = sorted(rng.dirichlet([2, 2, 2]), reverse=True)
        if shares[0] - shares[1] < 0.05 or shares[1] - shares[2] < 0.05:
            shares = [0.55, 0.3, 0.15]
        image = np.zeros((300, 400, 3), np.uint8)
        start = 0
        for name, share in zip(chosen, shares):
            stop = start + round(share * 400)
            image[:, start:stop] = names[name]
            start = stop
        image[:, start:] = names[chosen[-1]]
        found = argus.dominant_colors(image, k=3)
        exact.add([c["name"] for c in found] == list(chosen))
    seconds = timed(lambda: argus.dominant_colors(at_bench_size(data.astronaut())))
    return "10 three-colour images (names and order)", exact.text(), seconds


def find_template() -> Tuple[str, str, float]:
    tally = Tally()
    icon = cv2.resize(data.astronaut()[60:180, 160:280], (40, 40), interpolation=cv2.INTER_AREA)
    for seed, count in ((1, 5), (2, 9), (3, 14)):
        image, copies = template_scene(icon, count, seed)
        tally.add([d["bbox"] for d in argus.find_template(image, icon)], copies, by_iou)
    image, copies = template_scene(icon, 10, 7, size=(HEIGHT, WIDTH))
    seconds = timed(lambda: argus.find_template(image, icon))
    return "3 scenes, copies + flipped distractors", tally.text(), seconds


def qr_codes() -> Tuple[str, str, float]:
    exact = Exact()
    rng = np.random.default_rng(11)
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_/:?=&."
    for case in range(12):
        message = "".join(rng.choice(list(alphabet), int(rng.integers(5, 120))))
        code = qr_code(message, module=int(rng.integers(3, 8)))
        canvas = np.full((900, 900, 3), 240, np.uint8)
        # Centred, so the rotation below keeps the whole code inside the picture.
        paste(canvas, code, (900 - code.shape[1]) // 2, (900 - code.shape[0]) // 2)
        angle = float(rng.uniform(-30, 30)) if case % 2 else 0.0
        matrix = cv2.getRotationMatrix2D((450, 450), angle, 1.0)
        canvas = cv2.warpAffine(canvas, matrix, (900, 900), borderValue=(240, 240, 240))
        exact.add([c["data"] for c in argus.read_qr_codes(canvas)] == [message])
    canvas = np.full((HEIGHT, WIDTH, 3), 240, np.uint8)
    paste(canvas, qr_code("https://argus.example/bench", module=6), 300, 200)
    seconds = timed(lambda: argus.read_qr_codes(canvas))
    return "12 codes, 5-120 chars, module 3-7 px, half rotated <=30 deg", exact.text(), seconds


def barcodes() -> Tuple[str, str, float]:
    exact = Exact()
    rng = np.random.default_rng(12)
    for _ in range(10):
        digits = "".join(str(d) for d in rng.integers(0, 10, 12))
        barcode, code = ean13(digits, module=int(rng.integers(2, 5)))
        canvas = np.full((500, 700, 3), 255, np.uint8)
        paste(canvas, barcode, 30, 100)
        exact.add([c["data"] for c in argus.read_barcodes(canvas)] == [code])
    canvas = np.full((HEIGHT, WIDTH, 3), 255, np.uint8)
    paste(canvas, ean13("590123412345")[0], 200, 300)
    seconds = timed(lambda: argus.read_barcodes(canvas))
    return "10 EAN-13 codes, module 2-4 px", exact.text(), seconds


def ocr() -> Tuple[str, str, float]:
    read, drawn, extra = 0, 0, 0
    for seed, pixels in ((1, 14), (2, 18), (3, 24), (4, 32)):
        page, words = text_page(seed, pixels=pixels)
        found = collections.Counter(w["text"] for w in argus.ocr(page))
        wanted = collections.Counter(words)
        hits = sum(min(found[w], n) for w, n in wanted.items())
        read += hits
        drawn += len(words)
        extra += sum(found.values()) - hits
    page, _ = text_page(5, size=(WIDTH, HEIGHT))
    seconds = timed(lambda: argus.ocr(page))
    precision = read / max(1, read + extra)
    return "4 rendered pages, 14-32 px DejaVu Sans", f"words P {precision:.2f} / R {read / drawn:.2f} ({read}/{drawn})", seconds


def read_text() -> Tuple[str, str, float]:
    read, drawn = 0, 0
    for seed, pixels in ((6, 16), (7, 24)):
        page, words = text_page(seed, pixels=pixels)
        found = collections.Counter(argus.read_text(page).split())
        wanted = collections.Counter(words)
        read += sum(min(found[w], n) for w, n in wanted.items())
        drawn += len(words)
    page, _ = text_page(8, size=(WIDTH, HEIGHT))
    seconds = timed(lambda: argus.read_text(page))
    return "2 rendered pages", f"word recall {read / drawn:.2f} ({read}/{drawn})", seconds


def edges() -> Tuple[str, str, float]:
    image = np.full((400, 600), 40, np.uint8)
    cv2.rectangle(image, (100, 100), (399, 299), 200, -1)
    truth = np.zeros_like(image, bool)
    truth[99:301, 99:401] = True
    truth[102:298, 102:398] = False  # a 3 px band around the true boundary
    found = argus.detect_edges(image)
    precision = (found & truth).sum() / max(1, found.sum())
    recall_band = np.zeros_like(truth)
    recall_band[100:300, 100] = recall_band[100:300, 399] = recall_band[100, 100:400] = recall_band[299, 100:400] = True
    near = cv2.dilate(found.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    recall = (near & recall_band).sum() / recall_band.sum()
    seconds = timed(lambda: argus.detect_edges(at_bench_size(data.astronaut())))
    return "a drawn rectangle (boundary within 1 px)", f"P {precision:.2f} / R {recall:.2f}", seconds


def contours() -> Tuple[str, str, float]:
    exact = Exact()
    rng = np.random.default_rng(21)
    for _ in range(10):
        image = np.full((400, 600, 3), 30, np.uint8)
        axes = (int(rng.integers(60, 200)), int(rng.integers(30, 60)))
        angle = float(rng.uniform(-80, 80))
        cv2.ellipse(image, ((300, 200), (2 * axes[0], 2 * axes[1]), -angle), (220, 220, 220), -1)
        (found,) = argus.find_contours(image)
        area = math.pi * axes[0] * axes[1]
        exact.add(abs(found["area"] - area) / area < 0.02 and abs(found["orientation"] - angle) < 2
                  and abs(found["major_axis"] - 2 * axes[0]) < 4)
    seconds = timed(lambda: argus.find_contours(at_bench_size(data.coins())))
    return "10 ellipses: area +-2%, angle +-2 deg, axis +-4 px", exact.text(), seconds


def motion_and_tracking() -> List[Tuple[str, str, str, float]]:
    motion, followed, ids = Tally(), Exact(), Exact()
    for seed in range(5):
        frames, truth = moving_squares(3, 10, seed)
        for found, boxes in zip(argus.detect_motion(frames), truth):
            motion.add([d["bbox"] for d in found], boxes, by_iou)
        tracks = argus.track_objects(frames)
        ids.add(len({d["track_id"] for f in tracks for d in f}) == 3)
        for lane in range(3):
            path = argus.track_box(frames, list(truth[0][lane]))
            followed.add(all(f and iou(f[0]["bbox"], b[lane]) >= 0.5 for f, b in zip(path, truth)))
    big, _ = moving_squares(3, 10, 0, size=(HEIGHT, WIDTH))
    per_frame = timed(lambda: argus.detect_motion(big), repeats=1) / len(big)
    track_frame = timed(lambda: argus.track_objects(big), repeats=1) / len(big)
    box_frame = timed(lambda: argus.track_box(big, [10, 10, 40, 40]), repeats=1) / len(big)
    return [
        ("detect_motion", "5 videos x 10 frames, 3 movers", motion.text(), per_frame),
        ("track_objects", "5 videos: exactly 3 track ids", ids.text(), track_frame),
        ("track_box", "15 objects followed 10 frames (IoU>=0.5 all frames)", followed.text(), box_frame),
    ]


def search() -> Tuple[str, str, float]:
    sys.path.insert(0, str(PYTHON_DIR))
    from tests.test_tools_catalogue import SearchTest

    exact = Exact()
    for task, wanted in SearchTest.EXPECTED:
        exact.add(bool(wanted & set(argus.search_tools(task, k=3))))
    seconds = timed(lambda: argus.search_tools("count the coins on the table"))
    return f"{len(SearchTest.EXPECTED)} everyday tasks: right tool in top 3", exact.text(), seconds


def main() -> None:
    rows: List[Tuple[str, str, str, float]] = []
    for name, run in (
        ("detect_faces", faces), ("detect_eyes", eyes), ("detect_cat_faces", cat_faces), ("detect_people", people),
        ("detect_circles", circles), ("detect_blobs", blobs), ("count_objects", count_objects),
        ("count_objects", count_overlapping),
        ("segment_color", segment_color), ("dominant_colors", dominant_colors), ("find_template", find_template),
        ("read_qr_codes", qr_codes), ("read_barcodes", barcodes), ("ocr", ocr), ("read_text", read_text),
        ("detect_edges", edges), ("find_contours", contours),
    ):
        cases, metric, seconds = run()
        rows.append((name, cases, metric, seconds))
    rows.extend(motion_and_tracking())
    cases, metric, seconds = search()
    rows.append(("search_tools", cases, metric, seconds))
    rows.append(("describe", "needs the server's vision model", "n/a", float("nan")))
    rows.append(("classify", "needs the server's vision model", "n/a", float("nan")))

    headers = ("tool", "cases", "accuracy", "s/call @1024x768")
    widths = [max(len(headers[i]), *(len(str(r[i])) for r in rows)) for i in range(3)]
    line = f"| {headers[0]:<{widths[0]}} | {headers[1]:<{widths[1]}} | {headers[2]:<{widths[2]}} | {headers[3]} |"
    print(line)
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|" + "-" * (len(headers[3]) + 2) + "|")
    for name, cases, metric, seconds in rows:
        shown = "n/a" if math.isnan(seconds) else f"{seconds:.3f}"
        print(f"| {name:<{widths[0]}} | {cases:<{widths[1]}} | {metric:<{widths[2]}} | {shown:>{len(headers[3])}} |")
    print("\nTimes: median of 3 calls after a warm-up (cat faces, motion and tracking: 1 call);"
          " motion and tracking are per frame of a 10-frame 1024x768 video.")


if __name__ == "__main__":
    import argparse

    from real_photo_table import main as real_photos  # noqa: E402 - bench/ is on sys.path when run as a script

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--real", action="store_true", help="only the real-photo table")
    parser.add_argument("--argus-url", help="a running Argus (e.g. http://127.0.0.1:3000): also measure its neural tools")
    parser.add_argument("--token", help="a session token of that Argus (Authorization: Bearer)")
    parser.add_argument("--sweep", action="store_true", help="with --argus-url: also pass rates of the neural detectors per box threshold")
    args = parser.parse_args()
    if args.argus_url and not args.token:
        parser.error("--argus-url needs --token")
    if not args.real:
        main()
        print()
    real_photos(args.argus_url, args.token, with_sweep=args.sweep)
