"""detect_people's texture check (argus/tools/people.py): a whole-body box is a
person only when its edges stand out from the ring around it."""

from __future__ import annotations

import math
import unittest

import numpy as np

from argus.tools import people


class SurroundContrast(unittest.TestCase):
    def test_a_figure_on_a_plain_ground_stands_out(self) -> None:
        image = np.full((300, 300, 3), 200, np.uint8)
        image[100:220, 130:170] = 40  # a dark upright figure
        contrast = people._surround_contrast(people._edge_energy(image), (118, 88, 182, 232))
        self.assertGreater(contrast, people.MIN_SURROUND_CONTRAST)

    def test_a_box_in_uniform_texture_does_not(self) -> None:
        rng = np.random.default_rng(5)
        image = np.repeat(rng.integers(0, 255, (300, 300, 1), dtype=np.uint8), 3, axis=2)
        contrast = people._surround_contrast(people._edge_energy(image), (118, 88, 182, 232))
        self.assertLess(contrast, people.MIN_SURROUND_CONTRAST)

    def test_a_box_filling_the_picture_is_not_judged(self) -> None:
        image = np.zeros((100, 100, 3), np.uint8)
        self.assertEqual(people._surround_contrast(people._edge_energy(image), (0, 0, 100, 100)), math.inf)


if __name__ == "__main__":
    unittest.main()
