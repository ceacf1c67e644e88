"""Overlays of tool results: labels and scores must stay legible at any image size.

Legibility is checked the way a reader would: the overlay is shrunk as the
server shrinks images for the model (longer edge 1568 px), the tag is cut out
and Tesseract must read "label score" back.
"""

from __future__ import annotations

import cv2
import numpy as np
from skimage import data

import argus
from argus import overlay_bounding_boxes, overlay_segmentation_masks, read_text
from argus._drawing import layout_tag, tag_rect
from argus.overlays import _free_tag_rect, _interior_point

from .support import WorkspaceTestCase
from .test_tools_scenes import colored_squares, paste, qr_code, text_page

MODEL_EDGE = 1568  # the server shrinks images to this longer edge before the model sees them
SIZES = [(64, 48), (160, 120), (640, 480), (1024, 768), (4000, 3000), (300, 4000), (4000, 300)]


def as_the_model_sees(image: np.ndarray) -> "tuple[np.ndarray, float]":
    scale = min(1.0, MODEL_EDGE / max(image.shape[:2]))
    if scale == 1.0:
        return image, 1.0
    return cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA), scale


def read_back(image: np.ndarray, rect: "tuple[int, int, int, int]") -> str:
    """Tesseract's reading of a tag after the model-size shrink (crop enlarged 3x for OCR)."""
    seen, scale = as_the_model_sees(image)
    left, top, right, bottom = (int(round(v * scale)) for v in rect)
    crop = seen[top : max(bottom, top + 1), left : max(right, left + 1)]
    return read_text(cv2.resize(crop, None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC), mode="line")


class LegibilityTest(WorkspaceTestCase):
    def test_box_tags_read_back_at_every_size(self) -> None:
        for width, height in SIZES:
            with self.subTest(size=(width, height)):
                canvas = np.full((height, width, 3), 128, np.uint8)
                box = [width // 2, height // 2, width - 2, height - 2]
                out = overlay_bounding_boxes(canvas, [{"label": "coin", "score": 0.93, "bbox": box}])
                tag = layout_tag("coin", 0.93, height, width)
                text = read_back(out, _free_tag_rect(out.shape, tag, tuple(box), []))
                self.assertIn("coin", text)
                self.assertIn("0.9", text)

    def test_mask_tags_read_back_at_every_size(self) -> None:
        for width, height in SIZES:
            with self.subTest(size=(width, height)):
                canvas = np.full((height, width, 3), 128, np.uint8)
                mask = np.zeros((height, width), bool)
                mask[height // 4 : 3 * height // 4, width // 4 : 3 * width // 4] = True
                out = overlay_segmentation_masks(canvas, [{"label": "coin", "score": 0.93, "mask": mask}])
                tag = layout_tag("coin", 0.93, height, width)
                # The tag is centred on the mask's most interior pixel.
                cx, cy = _interior_point(mask)
                rect = tag_rect(out.shape, tag, cx - tag.width // 2, cy - tag.height // 2)
                text = read_back(out, rect)
                self.assertIn("coin", text)
                self.assertIn("0.9", text)

    def test_tags_keep_a_minimum_size_on_tiny_images(self) -> None:
        tag = layout_tag("coin", 0.93, 48, 64)
        self.assertGreaterEqual(tag.height, 14)  # ~7 px capitals: the smallest Hershey text that stays readable
        self.assertLessEqual(tag.width, 64)


class ToolResultsDrawTest(WorkspaceTestCase):
    """Every tool's result goes straight into the overlays without reshaping."""

    def test_detections_draw_as_boxes(self) -> None:
        coins = data.coins()
        canvas = np.full((400, 700, 3), 255, np.uint8)
        paste(canvas, qr_code("draw me", module=5), 20, 20)
        page, _ = text_page(seed=3, words=8, size=(700, 120), pixels=28)
        results = {
            "detect_circles": (coins, argus.detect_circles(coins)),
            "detect_faces": (data.astronaut(), argus.detect_faces(data.astronaut())),
            "detect_blobs": (coins, argus.detect_blobs(coins, box_threshold=0.4)),
            "find_template": (coins, argus.find_template(coins, [130, 20, 180, 70], box_threshold=0.6)),
            "read_qr_codes": (canvas, argus.read_qr_codes(canvas)),
            "ocr": (page, argus.ocr(page)),
            "find_contours": (coins, argus.find_contours(coins)),
        }
        for name, (image, found) in results.items():
            with self.subTest(tool=name):
                self.assertTrue(found, name)
                drawn = overlay_bounding_boxes(image, found)
                self.assertEqual(drawn.shape[:2], np.asarray(image).shape[:2])
                self.assertFalse(np.array_equal(drawn, argus.load_image(image)))

    def test_segmentations_draw_as_masks(self) -> None:
        coins = data.coins()
        squares, _ = colored_squares("green", 4, 6, seed=2)
        for name, (image, found) in {
            "count_objects": (coins, argus.count_objects(coins, label="coin")),
            "segment_color": (squares, argus.segment_color(squares, "green")),
        }.items():
            with self.subTest(tool=name):
                drawn = overlay_segmentation_masks(image, found)
                inside = found[0]["mask"]
                self.assertFalse(np.array_equal(drawn[inside], argus.load_image(image)[inside]))

    def test_tracks_draw_with_one_colour_per_object(self) -> None:
        from .test_tools_scenes import moving_squares

        frames, _ = moving_squares(3, 4, seed=2)
        tracks = argus.track_objects(frames)
        drawn = overlay_bounding_boxes(frames[3], tracks[3])
        labels = {d["label"] for d in tracks[3]}
        self.assertEqual(labels, {"moving object 1", "moving object 2", "moving object 3"})
        self.assertEqual(drawn.shape, frames[3].shape)
