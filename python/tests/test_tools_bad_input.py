"""Vision tools on bad input: empty, tiny, 16-bit, grey, RGBA, huge, corrupt, and wrong arguments.

Every case must end in a correct result or an exception whose message names the
function and the argument, quickly: never a wrong answer or a hung kernel.
"""

from __future__ import annotations

import builtins
import struct
import time
import zlib
from typing import Any, Callable, Dict, Tuple
from unittest import mock

import cv2
import numpy as np
from PIL import Image
from skimage import data

import argus
from argus.bridge import BridgeError
from argus.tools import MAX_PIXELS

from .support import WorkspaceTestCase
from .test_tools_scenes import moving_squares, qr_code

# Every tool that takes one image, with the other arguments it needs.
IMAGE_TOOLS: Dict[str, Tuple[Callable, Dict[str, Any]]] = {
    name: (getattr(argus, name), extra)
    for name, extra in {
        "detect_faces": {},
        "detect_eyes": {},
        "detect_cat_faces": {},
        "detect_people": {},
        "detect_circles": {},
        "detect_blobs": {},
        "count_objects": {},
        "segment_color": {"color": "red"},
        "dominant_colors": {},
        "find_template": {"template": np.eye(8, dtype=np.uint8) * 255},
        "read_qr_codes": {},
        "read_barcodes": {},
        "ocr": {},
        "read_text": {},
        "detect_edges": {},
        "find_contours": {},
        "describe": {},
        "classify": {"labels": ["cat", "dog"]},
    }.items()
}
MODEL_TOOLS = {"describe", "classify"}


def no_bridge(prompt: str = "") -> str:
    """builtins.input outside an Argus session: stdin is closed."""
    raise EOFError


class EmptyAndTinyImagesTest(WorkspaceTestCase):
    def test_empty_images_are_refused_naming_the_argument(self) -> None:
        for empty in (np.zeros((0, 0, 3), np.uint8), np.zeros((0, 7), np.uint8), Image.new("RGB", (0, 0))):
            for name, (tool, extra) in IMAGE_TOOLS.items():
                with self.subTest(tool=name, shape=getattr(empty, "shape", "PIL")):
                    with self.assertRaises(ValueError) as caught:
                        tool(empty, **extra)
                    self.assertIn(f"{name}: image", str(caught.exception))
                    self.assertIn("empty", str(caught.exception))

    def test_one_and_two_pixel_images_give_empty_results(self) -> None:
        with mock.patch.object(builtins, "input", no_bridge):
            for pixels in (np.zeros((1, 1, 3), np.uint8), np.full((2, 2), 200, np.uint8)):
                for name, (tool, extra) in IMAGE_TOOLS.items():
                    with self.subTest(tool=name, shape=pixels.shape):
                        if name in MODEL_TOOLS:
                            # Tiny images are still sent; outside Argus the bridge says it is missing.
                            with self.assertRaises(BridgeError):
                                tool(pixels, **extra)
                            continue
                        if name == "find_template":
                            with self.assertRaises(ValueError) as caught:
                                tool(pixels, **extra)
                            self.assertIn("larger than the image", str(caught.exception))
                            continue
                        result = tool(pixels, **extra)
                        if name == "detect_edges":
                            self.assertEqual(result.shape, pixels.shape[:2])
                            self.assertFalse(result.any())
                        elif name == "dominant_colors":
                            self.assertEqual(len(result), 1)
                            self.assertEqual(result[0]["fraction"], 1.0)
                        elif name == "read_text":
                            self.assertEqual(result, "")
                        else:
                            self.assertEqual(result, [])


class PixelFormatTest(WorkspaceTestCase):
    def test_sixteen_bit_and_grey_coins_give_the_same_counts(self) -> None:
        coins = data.coins()  # grey uint8
        sixteen = coins.astype(np.uint16) * 257
        for variant in (coins, sixteen, np.dstack([sixteen] * 3)):
            with self.subTest(dtype=variant.dtype, shape=variant.shape):
                self.assertEqual(len(argus.detect_circles(variant)), 24)
                self.assertEqual(len(argus.count_objects(variant, masks=False)), 24)

    def test_rgba_with_transparent_background_is_read_on_white(self) -> None:
        code = qr_code("transparent background", module=6)
        rgba = np.zeros(code.shape + (4,), np.uint8)
        rgba[:, :, 3] = np.where(code == 0, 255, 0)  # only the dark modules are opaque
        self.assertEqual([c["data"] for c in argus.read_qr_codes(rgba)], ["transparent background"])
        self.assertEqual([c["data"] for c in argus.read_qr_codes(Image.fromarray(rgba, "RGBA"))], ["transparent background"])

    def test_every_tool_accepts_sixteen_bit_grey_rgba_pil_and_files(self) -> None:
        photo = data.astronaut()[::4, ::4]  # 128x128
        cv2.imwrite("photo.png", cv2.cvtColor(photo, cv2.COLOR_RGB2BGR))
        variants = {
            "uint16 rgb": photo.astype(np.uint16) * 257,
            "grey": cv2.cvtColor(photo, cv2.COLOR_RGB2GRAY),
            "rgba": np.dstack([photo, np.full(photo.shape[:2], 255, np.uint8)]),
            "pil": Image.fromarray(photo),
            "path": "photo.png",
            "float": photo.astype(np.float32) / 255.0,
        }
        for name, (tool, extra) in IMAGE_TOOLS.items():
            if name in MODEL_TOOLS:
                continue
            for label, variant in variants.items():
                with self.subTest(tool=name, variant=label):
                    tool(variant, **extra)  # no exception; results are checked elsewhere

    def test_inputs_are_not_modified(self) -> None:
        photo = data.coins()[::2, ::2].copy()
        before = photo.copy()
        for name, (tool, extra) in IMAGE_TOOLS.items():
            if name not in MODEL_TOOLS:
                tool(photo, **extra)
        np.testing.assert_array_equal(photo, before)


class HugeImageTest(WorkspaceTestCase):
    def assert_refused_quickly(self, tool: Callable, image: Any, name: str, **extra: Any) -> None:
        start = time.monotonic()
        with self.assertRaises(ValueError) as caught:
            tool(image, **extra)
        elapsed = time.monotonic() - start
        message = str(caught.exception)
        self.assertIn(f"{name}: image", message)
        self.assertIn("7746x7746 = 60.0 megapixels", message)
        self.assertIn("40 MP limit", message)
        self.assertIn("cv2.resize", message)  # says how to get under the limit
        self.assertLess(elapsed, 1.0, name)

    def test_sixty_megapixel_array_is_refused_before_any_work(self) -> None:
        huge = np.zeros((7746, 7746, 3), np.uint8)  # calloc'd: costs no time to create
        for name, (tool, extra) in IMAGE_TOOLS.items():
            with self.subTest(tool=name):
                self.assert_refused_quickly(tool, huge, name, **extra)
        self.assert_refused_quickly(argus.count_objects, Image.new("L", (7746, 7746)), "count_objects")

    def test_sixty_megapixel_file_is_refused_from_its_header(self) -> None:
        stripes = np.zeros((7746, 7746), np.uint8)
        stripes[::50] = 255
        cv2.imwrite("huge.jpg", stripes, [cv2.IMWRITE_JPEG_QUALITY, 50])
        for name, (tool, extra) in IMAGE_TOOLS.items():
            with self.subTest(tool=name):
                self.assert_refused_quickly(tool, "huge.jpg", name, **extra)

    def test_a_decompression_bomb_header_is_refused(self) -> None:
        # A 20000x10000 PNG header over a few bytes of data: Pillow itself refuses to open it.
        def chunk(kind: bytes, body: bytes) -> bytes:
            return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

        header = struct.pack(">IIBBBBB", 20000, 10000, 8, 0, 0, 0, 0)
        with open("bomb.png", "wb") as handle:
            handle.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b""))
        with self.assertRaises(ValueError) as caught:
            argus.count_objects("bomb.png")
        self.assertIn("far above the 40 MP limit", str(caught.exception))

    def test_the_limit_is_forty_megapixels(self) -> None:
        self.assertEqual(MAX_PIXELS, 40_000_000)
        self.assertIn("40 megapixels", argus.tools.__doc__)

    def test_a_large_image_below_the_limit_is_processed(self) -> None:
        # 12 MP, a typical phone photo size: 30 sharp discs, radius 40-119 px.
        rng = np.random.default_rng(0)
        photo = np.full((3000, 4000), 60, np.uint8)
        placed: list = []
        while len(placed) < 30:
            r = int(rng.integers(40, 120))
            x, y = int(rng.integers(r + 5, 4000 - r - 5)), int(rng.integers(r + 5, 3000 - r - 5))
            if all(np.hypot(x - a, y - b) > r + c + 20 for a, b, c in placed):
                placed.append((x, y, r))
                cv2.circle(photo, (x, y), r, 200, -1, cv2.LINE_AA)
        circles = argus.detect_circles(photo, min_radius=30)
        found = sorted(c["radius"] for c in circles)
        self.assertEqual(len(found), 30)
        for measured, true in zip(found, sorted(r for _, _, r in placed)):
            self.assertLess(abs(measured - true), 2.5)
        self.assertEqual(len(argus.count_objects(photo, masks=False)), 30)
        # No time limit here: tests must not depend on the machine's speed (the benchmark measures it).


class FileProblemTest(WorkspaceTestCase):
    def test_corrupt_file(self) -> None:
        with open("broken.png", "wb") as handle:
            handle.write(b"\x89PNG\r\n\x1a\n" + b"not really a png" * 50)
        with open("notes.jpg", "wb") as handle:
            handle.write(b"these are words, not a JPEG")
        for path in ("broken.png", "notes.jpg"):
            for name, (tool, extra) in IMAGE_TOOLS.items():
                with self.subTest(tool=name, path=path):
                    with self.assertRaises(ValueError) as caught:
                        tool(path, **extra)
                    self.assertIn(name, str(caught.exception))
                    self.assertIn(path, str(caught.exception))
                    self.assertIn("not a readable image", str(caught.exception))

    def test_truncated_jpeg(self) -> None:
        ok, encoded = cv2.imencode(".jpg", data.astronaut())
        with open("cut.jpg", "wb") as handle:
            handle.write(encoded.tobytes()[: len(encoded) // 3])
        with self.assertRaises(ValueError) as caught:
            argus.detect_faces("cut.jpg")
        self.assertIn("cut.jpg", str(caught.exception))

    def test_missing_file_lists_what_exists(self) -> None:
        cv2.imwrite("coins.png", data.coins())
        with self.assertRaises(FileNotFoundError) as caught:
            argus.count_objects("coin.png")
        self.assertIn("coin.png", str(caught.exception))
        self.assertIn("coins.png", str(caught.exception))

    def test_directory_instead_of_file(self) -> None:
        with self.assertRaises(IsADirectoryError):
            argus.ocr(".")


class WrongArgumentTest(WorkspaceTestCase):
    def assert_error(self, error: type, call: Callable[[], Any], *fragments: str) -> None:
        with self.assertRaises(error) as caught:
            call()
        for fragment in fragments:
            self.assertIn(fragment, str(caught.exception))

    def test_image_of_the_wrong_type(self) -> None:
        for bad, kind in ((42, "int"), (None, "None"), ({"a": 1}, "dict"), ([data.coins()], "list")):
            for name, (tool, extra) in IMAGE_TOOLS.items():
                with self.subTest(tool=name, image=kind):
                    self.assert_error(TypeError, lambda: tool(bad, **extra), f"{name}: image")

    def test_thresholds_and_sizes(self) -> None:
        coins = data.coins()
        cases = [
            (TypeError, lambda: argus.detect_faces(coins, box_threshold="high"), "box_threshold", "str"),
            (ValueError, lambda: argus.detect_faces(coins, box_threshold=1.5), "box_threshold", "[0, 1]"),
            (ValueError, lambda: argus.detect_circles(coins, box_threshold=float("nan")), "box_threshold", "finite"),
            (TypeError, lambda: argus.detect_cat_faces(coins, box_threshold=True), "box_threshold"),
            (TypeError, lambda: argus.detect_eyes(coins, min_size=20.5), "min_size", "integer"),
            (ValueError, lambda: argus.detect_faces(coins, min_size=50, max_size=20), "max_size", "min_size"),
            (ValueError, lambda: argus.detect_circles(coins, min_radius=30, max_radius=10), "max_radius"),
            (ValueError, lambda: argus.detect_people(coins, min_height=0), "min_height"),
            (ValueError, lambda: argus.detect_blobs(coins, polarity="light"), "polarity", "bright"),
            (ValueError, lambda: argus.detect_blobs(coins, num_scales=1), "num_scales"),
            (ValueError, lambda: argus.count_objects(coins, threshold=300), "threshold", "255"),
            (ValueError, lambda: argus.count_objects(coins, min_area=100, max_area=10), "max_area"),
            (TypeError, lambda: argus.count_objects(coins, split_touching="yes"), "split_touching"),
            (TypeError, lambda: argus.count_objects(coins, label=3), "label"),
            (ValueError, lambda: argus.segment_color(coins), "exactly one of color"),
            (ValueError, lambda: argus.segment_color(coins, color="chartreuse"), "unknown colour", "red"),
            (TypeError, lambda: argus.segment_color(coins, color=(255, 0, 0)), "color", "hsv_range"),
            (ValueError, lambda: argus.segment_color(coins, hsv_range=((0, 0, 0), (300, 255, 255))), "0-179"),
            (TypeError, lambda: argus.segment_color(coins, hsv_range=(0, 255)), "hsv_range"),
            (ValueError, lambda: argus.dominant_colors(coins, k=0), "k"),
            (ValueError, lambda: argus.dominant_colors(coins, mask=np.ones((5, 5), bool)), "mask", "303x384"),
            (ValueError, lambda: argus.find_template(coins, [10, 10, 11, 11]), "template box", "3x3"),
            (ValueError, lambda: argus.find_template(coins, np.full((9, 9), 7, np.uint8)), "flat"),
            (ValueError, lambda: argus.find_template(coins, data.astronaut()), "larger than the image"),
            (TypeError, lambda: argus.find_template(coins, [1, 2]), "template"),
            (ValueError, lambda: argus.find_template(coins, [0, 0, 50, 50], scales=[0]), "scales[0]"),
            (ValueError, lambda: argus.ocr(coins, mode="paragraph"), "mode", "sparse"),
            (ValueError, lambda: argus.ocr(coins, language="klingon"), "klingon", "eng"),
            (TypeError, lambda: argus.read_text(coins, language=None), "language"),
            (ValueError, lambda: argus.detect_edges(coins, low=100, high=50), "high", "low"),
            (TypeError, lambda: argus.find_contours(coins, holes="no"), "holes"),
            (TypeError, lambda: argus.describe(coins, focus=5), "focus"),
            (ValueError, lambda: argus.classify(coins, ["only one"]), "at least 2"),
            (ValueError, lambda: argus.classify(coins, ["cat", "Cat"]), "distinct"),
            (ValueError, lambda: argus.classify(coins, "cat"), "labels", "at least 2"),
            (TypeError, lambda: argus.search_tools(None), "task"),
            (ValueError, lambda: argus.search_tools("count coins", k=0), "k"),
        ]
        for error, call, *fragments in cases:
            with self.subTest(fragments=fragments):
                self.assert_error(error, call, *fragments)

    def test_video_frames(self) -> None:
        frames, truth = moving_squares(2, 4, seed=1)
        cases = [
            (TypeError, lambda: argus.detect_motion(frames[0]), "frames must be a list"),
            (ValueError, lambda: argus.detect_motion(frames[:1]), "at least 2"),
            (ValueError, lambda: argus.detect_motion([]), "at least 2"),
            (ValueError, lambda: argus.detect_motion([frames[0], frames[1][:100]]), "frames[1]", "same size"),
            (TypeError, lambda: argus.detect_motion([frames[0], 7]), "frames[1]"),
            (ValueError, lambda: argus.detect_motion(frames, threshold=0), "threshold"),
            (ValueError, lambda: argus.track_objects(frames, detections=[[]]), "1 entries", "4 frames"),
            (ValueError, lambda: argus.track_objects(frames, detections=[[{"box": [1, 2, 3, 4]}]] * 4), "bbox"),
            (TypeError, lambda: argus.track_objects(frames, detections="faces"), "detections"),
            (TypeError, lambda: argus.track_box(frames, "the ball"), "box"),
            (ValueError, lambda: argus.track_box(frames, [10, 10, 12, 12]), "4x4"),
        ]
        for error, call, *fragments in cases:
            with self.subTest(fragments=fragments):
                self.assert_error(error, call, *fragments)
        # Frames as the dicts extract_frames_and_timestamps returns work too.
        dicts = [{"frame": frame, "timestamp": index / 2} for index, frame in enumerate(frames)]
        self.assertEqual([len(f) for f in argus.detect_motion(dicts)], [2, 2, 2, 2])

    def test_huge_frame_in_a_video_is_refused(self) -> None:
        huge = np.zeros((7746, 7746, 3), np.uint8)
        with self.assertRaises(ValueError) as caught:
            argus.detect_motion([huge, huge])
        self.assertIn("frames[0]", str(caught.exception))
        self.assertIn("40 MP limit", str(caught.exception))

    def test_too_many_masks_is_refused_with_the_way_out(self) -> None:
        # 900 dots on a 1200x1200 image: full-size masks would need 1.2 GiB.
        dots = np.zeros((1200, 1200), np.uint8)
        dots[20::40, 20::40] = 255
        dots = cv2.dilate(dots, np.ones((7, 7), np.uint8))
        with self.assertRaises(ValueError) as caught:
            argus.count_objects(dots)
        self.assertIn("masks=False", str(caught.exception))
        self.assertEqual(len(argus.count_objects(dots, masks=False)), 900)
