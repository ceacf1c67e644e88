"""Regression cases from real photographs (python/tests/photos, see SOURCES.md),
one or more per failure class of issue #17, all with default parameters.

The photos' truth was established by looking; the cases themselves live in
tests/real_photos.py and are also the benchmark's real-photo table. No test
here asserts a time.
"""

from __future__ import annotations

import unittest

import cv2
import numpy as np

import argus
from tests import real_photos as cases


class RealPhotoRegressions(unittest.TestCase):
    def check(self, case) -> None:
        ok, detail = case()
        self.assertTrue(ok, f"{case.__name__}: {detail}")

    # Circles: round objects cut by the image edge.
    def test_circles_cut_by_the_edge_count(self) -> None:
        self.check(cases.circles_cut_by_edge)

    def test_circles_on_a_desk(self) -> None:
        self.check(cases.circles_desk)

    # Circles: a small ball in clutter (a crowd behind it), sweets on white.
    def test_a_football_in_front_of_a_crowd(self) -> None:
        self.check(cases.circles_football)

    def test_every_sweet_is_a_circle(self) -> None:
        self.check(cases.circles_smarties)

    # Counting: a dark frame / vignette must not flip the polarity; mixed polarity.
    def test_dark_border_does_not_flip_the_polarity(self) -> None:
        self.check(cases.count_dark_border)

    def test_vignetting_does_not_split_or_add_objects(self) -> None:
        self.check(cases.count_vignetted_coins)

    def test_dark_and_bright_objects_on_one_background(self) -> None:
        self.check(cases.count_mixed_polarity)

    def test_sweets_on_white_with_shadows(self) -> None:
        self.check(cases.count_smarties)

    # Colour: shadow specks, dark rims counted as red, names by perceptual distance.
    def test_red_does_not_take_orange_or_brown_sweets(self) -> None:
        self.check(cases.color_red_smarties)

    def test_shadow_specks_are_not_regions(self) -> None:
        self.check(cases.color_blue_smarties)
        self.check(cases.color_orange_smarties)

    def test_a_dusky_pink_lighter_is_not_red(self) -> None:
        self.check(cases.color_red_lighter)

    def test_muted_and_light_greens_are_named_green(self) -> None:
        self.check(cases.color_name_grass)
        self.check(cases.color_name_lime)
        self.check(cases.color_name_leaves)

    def test_a_lemon_in_shade_is_yellow(self) -> None:
        self.check(cases.color_name_lemon)

    # OCR on photos: deskew, text lines in a photo.
    def test_a_rotated_page_is_deskewed(self) -> None:
        self.check(cases.ocr_rotated_page)

    def test_words_boxes_of_a_rotated_page_lie_on_the_page(self) -> None:
        page = cases.photo("imageTextR.png")
        words = argus.ocr(page)
        self.assertGreater(len(words), 30)
        height, width = page.shape[:2]
        for word in words:
            x1, y1, x2, y2 = word["bbox"]
            self.assertTrue(0 <= x1 < x2 <= width and 0 <= y1 < y2 <= height, word)

    def test_signs_in_street_photos(self) -> None:
        self.check(cases.ocr_barrier_sign)
        self.check(cases.ocr_parking_sign)
        self.check(cases.ocr_shop_sign)

    def test_light_letters_on_a_dark_sign(self) -> None:
        self.check(cases.ocr_hotel_sign)

    # OCR: a product box whose words run up its side (read turned a quarter).
    def test_text_running_up_a_product_box(self) -> None:
        self.check(cases.ocr_product_box)

    # Template matching: rotated and scaled copies, perspective, busy frame.
    def test_template_rotated_twelve_degrees_at_half_size(self) -> None:
        self.check(cases.template_rotated_half_player)
        self.check(cases.template_rotated_half_tower)

    def test_template_in_perspective_in_clutter(self) -> None:
        self.check(cases.template_box_in_scene)

    def test_small_template_in_a_busy_frame(self) -> None:
        self.check(cases.template_small_in_busy)

    # People whose feet are out of frame.
    def test_half_length_portraits_are_people(self) -> None:
        self.check(cases.people_astronaut)
        self.check(cases.people_grace_hopper)
        self.check(cases.people_footballer)

    def test_get_tool_for_task_prefers_tools_that_hold_up_on_photos(self) -> None:
        from argus.tools.real_photo_scores import prefer_by_real_photos

        # Equally relevant neighbours: the one with the better real-photo score goes first.
        self.assertEqual(prefer_by_real_photos([("detect_people", 3.0), ("find_template", 2.9)], 2), ["find_template", "detect_people"])
        # A much better match is never pushed out.
        self.assertEqual(prefer_by_real_photos([("detect_circles", 6.0), ("count_objects", 2.0)], 1), ["detect_circles"])

    # People: HOG whole-body hits on texture (a circuit board, hands before a
    # patterned shirt) are not people; pedestrians in a surveillance frame are.
    def test_texture_is_not_a_person(self) -> None:
        self.check(cases.people_none("board.jpg"))

    def test_pedestrians_in_a_surveillance_frame(self) -> None:
        self.check(cases.pedestrians("vtest_0264.jpg"))
        self.check(cases.pedestrians("vtest_0792.jpg"))

    def test_no_people_in_still_lifes(self) -> None:
        self.check(cases.people_none("fruits.jpg"))
        self.check(cases.people_none("smarties.png"))


class DefocusedBarcode(unittest.TestCase):
    """No photographed barcode is obtainable here, so the defocused UPC is a
    generated EAN-13/UPC-A blurred like an out-of-focus phone shot."""

    def test_a_defocused_upc_is_read(self) -> None:
        from tests.test_tools_scenes import ean13, paste

        barcode, code = ean13("036000291452", module=3)
        canvas = np.full((300, 600, 3), 255, np.uint8)
        paste(canvas, barcode, 40, 60)
        blurred = cv2.GaussianBlur(canvas, (0, 0), 2.0)  # main read nothing here
        found = [c["data"] for c in argus.read_barcodes(blurred)]
        self.assertEqual(found, [code])


if __name__ == "__main__":
    unittest.main()
