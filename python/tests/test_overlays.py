"""overlay_bounding_boxes on real images from 64 px to 4000 px."""

from __future__ import annotations

import cv2
import numpy as np

from argus import overlay_bounding_boxes
from argus._drawing import PALETTE, layout_tag, line_thickness

from .support import WorkspaceTestCase, astronaut, chelsea

RED, GREEN = PALETTE[0], PALETTE[1]


class BoundingBoxDrawingTest(WorkspaceTestCase):
    def test_shape_dtype_and_input_not_mutated(self) -> None:
        photo = chelsea()
        before = photo.copy()
        out = overlay_bounding_boxes(photo, [{"label": "cat", "score": 0.91, "bbox": [100, 50, 300, 250]}])
        self.assertEqual((out.shape, out.dtype), (photo.shape, np.uint8))
        np.testing.assert_array_equal(photo, before)
        self.assertFalse(np.shares_memory(out, photo))

    def test_border_pixels_take_the_label_colour_inside_the_box_only(self) -> None:
        photo = chelsea()
        out = overlay_bounding_boxes(photo, [{"label": "cat", "score": 0.91, "bbox": [100, 100, 300, 200]}])
        thickness = line_thickness(*photo.shape[:2])
        # Left, right and bottom borders, drawn inward from the box edge.
        for x in range(100, 100 + thickness):
            np.testing.assert_array_equal(out[150, x], RED)
        np.testing.assert_array_equal(out[150, 299], RED)
        np.testing.assert_array_equal(out[199, 200], RED)
        # Just outside and well inside the box: untouched.
        np.testing.assert_array_equal(out[150, 99], photo[150, 99])
        np.testing.assert_array_equal(out[150, 300], photo[150, 300])
        np.testing.assert_array_equal(out[200, 200], photo[200, 200])
        np.testing.assert_array_equal(out[150, 200], photo[150, 200])
        # The tag sits above the top-left corner, filled with the label colour.
        tag_area = out[100 - 6 : 100, 100:110].reshape(-1, 3)
        self.assertTrue((tag_area == RED).all(axis=1).sum() > tag_area.shape[0] // 2)

    def test_one_colour_per_label(self) -> None:
        out = overlay_bounding_boxes(
            astronaut(),
            [
                {"label": "person", "bbox": [10, 100, 60, 200]},
                {"label": "rocket", "bbox": [200, 300, 260, 400]},
                {"label": "person", "bbox": [400, 300, 480, 400]},
            ],
        )
        np.testing.assert_array_equal(out[150, 10], RED)
        np.testing.assert_array_equal(out[350, 200], GREEN)
        np.testing.assert_array_equal(out[350, 400], RED)

    def test_normalized_boxes_are_scaled_to_pixels(self) -> None:
        photo = np.full((300, 400, 3), 90, np.uint8)
        normalized = overlay_bounding_boxes(photo, [{"label": "a", "bbox": [0.25, 0.5, 0.75, 1.0]}])
        pixels = overlay_bounding_boxes(photo, [{"label": "a", "bbox": [100, 150, 300, 300]}])
        np.testing.assert_array_equal(normalized, pixels)
        np.testing.assert_array_equal(normalized[200, 100], RED)

    def test_boxes_past_the_edge_are_clipped(self) -> None:
        photo = astronaut()
        out = overlay_bounding_boxes(photo, [{"label": "flag", "bbox": [-40, -40, 100, 600]}])
        np.testing.assert_array_equal(out[300, 0], RED)
        np.testing.assert_array_equal(out[300, 99], RED)
        np.testing.assert_array_equal(out[511, 50], RED)

    def test_tiny_image_keeps_a_readable_tag_inside(self) -> None:
        tiny = cv2.resize(astronaut(), (64, 48), interpolation=cv2.INTER_AREA)
        detections = [
            {"label": "person", "score": 0.93, "bbox": [17, 2, 55, 47]},
            {"label": "rocket", "score": 0.61, "bbox": [54, 0, 63, 30]},
        ]
        out = overlay_bounding_boxes(tiny, detections)
        self.assertEqual(out.shape, (48, 64, 3))
        tag = layout_tag("person", 0.93, 48, 64)
        self.assertLessEqual(tag.width, 64)
        self.assertGreaterEqual(tag.scale, 0.35)  # ~7 px letters, not a smudge
        self.assertIn("person", tag.text)
        # Both labels' colours appear outside the box borders (their tags were drawn).
        for color in (RED, GREEN):
            self.assertTrue((out == color).all(axis=2).sum() > 40)

    def test_large_image_scales_lines_and_text(self) -> None:
        big = cv2.resize(astronaut(), (4000, 3000), interpolation=cv2.INTER_LINEAR)
        out = overlay_bounding_boxes(big, [{"label": "person", "score": 0.93, "bbox": [1000, 200, 3400, 2900]}])
        thickness = line_thickness(3000, 4000)
        self.assertGreaterEqual(thickness, 10)
        np.testing.assert_array_equal(out[1500, 1000 + thickness - 1], RED)
        np.testing.assert_array_equal(out[1500, 1000 + thickness + 5], big[1500, 1000 + thickness + 5])
        tag = layout_tag("person", 0.93, 3000, 4000)
        self.assertGreaterEqual(tag.height, 80)  # still ~30 px after the server shrinks to 1568
        self.assertTrue((out[200 - tag.height : 200, 1000 : 1000 + tag.width] == RED).all(axis=2).mean() > 0.5)

    def test_single_dict_empty_list_and_optional_fields(self) -> None:
        photo = chelsea()
        np.testing.assert_array_equal(overlay_bounding_boxes(photo, []), photo)
        single = overlay_bounding_boxes(photo, {"bbox": [10, 10, 50, 50]})
        np.testing.assert_array_equal(single[30, 10], RED)
        overlay_bounding_boxes(photo, [{"label": 3, "score": np.float32(0.5), "bbox": np.array([1, 2, 30, 40])}])
        overlay_bounding_boxes(photo, [{"label": "café ☕", "bbox": [1, 2, 30, 40]}])

    def test_accepts_a_file_path(self) -> None:
        cv2.imwrite("cat.png", cv2.cvtColor(chelsea(), cv2.COLOR_RGB2BGR))
        out = overlay_bounding_boxes("cat.png", [{"label": "cat", "bbox": [10, 10, 50, 50]}])
        self.assertEqual(out.shape, chelsea().shape)


class BoundingBoxValidationTest(WorkspaceTestCase):
    def assert_error(self, error: type, detections: object, *fragments: str) -> None:
        with self.assertRaises(error) as caught:
            overlay_bounding_boxes(chelsea(), detections)
        message = str(caught.exception)
        self.assertIn("overlay_bounding_boxes", message)
        for fragment in fragments:
            self.assertIn(fragment, message)

    def test_bbox_must_have_four_numbers(self) -> None:
        self.assert_error(ValueError, [{"label": "a", "bbox": [1, 2, 3]}], "detections[0]", "length 3")
        ok = {"label": "a", "bbox": [1, 2, 3, 4]}
        self.assert_error(ValueError, [ok, {"label": "b", "bbox": [1, 2, 3, 4, 5]}], "detections[1]")
        self.assert_error(ValueError, [{"bbox": "1,2,3,4"}], "bbox")
        self.assert_error(ValueError, [{"bbox": [1, 2, float("nan"), 4]}], "finite")
        self.assert_error(ValueError, [{"bbox": [True, 2, 3, 4]}], "finite numbers")

    def test_corners_must_be_ordered(self) -> None:
        self.assert_error(ValueError, [{"label": "a", "bbox": [50, 10, 20, 40]}], "x2 < x1", "width")
        self.assert_error(ValueError, [{"label": "a", "bbox": [10, 50, 20, 40]}], "y2 < y1")

    def test_box_entirely_outside(self) -> None:
        self.assert_error(ValueError, [{"label": "a", "bbox": [600, 10, 700, 40]}], "outside", "451x300")

    def test_structure_errors(self) -> None:
        self.assert_error(TypeError, np.array([[1, 2, 3, 4]]), "list of dicts")
        self.assert_error(TypeError, [[1, 2, 3, 4]], "detections[0]", "dict")
        self.assert_error(ValueError, [{"label": "a", "box": [1, 2, 3, 4]}], "no 'bbox' key", "box")
        self.assert_error(TypeError, [{"label": ["a"], "bbox": [1, 2, 3, 4]}], "label")
        self.assert_error(TypeError, [{"score": "high", "bbox": [1, 2, 3, 4]}], "score")

    def test_bad_image_is_named(self) -> None:
        with self.assertRaises(TypeError) as caught:
            overlay_bounding_boxes(None, [])
        self.assertIn("overlay_bounding_boxes: image", str(caught.exception))
