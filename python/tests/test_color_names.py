"""Colour naming (argus/tools/_color_names.py): the name a person would give a
measured colour, including shaded and lit versions of the basic colours."""

from __future__ import annotations

import unittest

from argus.tools import _color_names

# Measured colours and the names a person would accept. The first block are
# patches of real photos (tests/real_photos.py); the rest are hand-picked.
EXPECTED = {
    (142, 126, 75): {"yellow"},                       # a lemon's cut face in shade (fruits.jpg)
    (127, 112, 64): {"yellow"},                       # the same, darker
    (51, 72, 15): {"green", "dark green"},            # a lime's skin
    (101, 148, 52): {"green"},                        # a football pitch
    (222, 243, 8): {"yellow green", "green", "light green"},  # sunlit leaves
    (24, 95, 162): {"blue"},                          # sky
    (168, 106, 23): {"orange"},                       # an orange's flesh
    (128, 128, 128): {"gray"},
    (250, 250, 250): {"white"},
    (10, 10, 10): {"black"},
    (20, 20, 20): {"black"},
    (50, 50, 50): {"dark gray"},
    (190, 190, 190): {"light gray"},
    (220, 30, 30): {"red"},
    (150, 25, 25): {"red", "dark red"},
    (90, 10, 10): {"dark red"},
    (245, 215, 30): {"yellow"},
    (255, 255, 150): {"yellow"},
    (80, 50, 30): {"brown"},
    (100, 65, 35): {"brown"},
    (120, 60, 20): {"brown"},
    (70, 40, 20): {"brown"},
    (150, 110, 60): {"brown", "orange"},
    (20, 30, 110): {"navy"},
    (25, 40, 80): {"navy", "blue"},
    (0, 128, 128): {"teal"},
    (128, 128, 20): {"olive"},
    (100, 100, 30): {"olive"},
    (240, 170, 190): {"pink"},
    (60, 30, 90): {"purple"},
    (90, 60, 110): {"purple"},
    (30, 60, 30): {"dark green"},
    (60, 100, 40): {"green", "dark green"},
    (90, 120, 180): {"blue", "light blue"},
}


class ColourNames(unittest.TestCase):
    def test_measured_colours_get_the_name_a_person_gives(self) -> None:
        wrong = {rgb: _color_names.name_of(rgb) for rgb, names in EXPECTED.items() if _color_names.name_of(rgb) not in names}
        self.assertEqual(wrong, {})

    def test_every_prototype_is_named_by_its_own_name(self) -> None:
        for name, rgb in _color_names.REFERENCES:
            self.assertEqual(_color_names.name_of(rgb), name, rgb)

    def test_a_shaded_yellow_stays_yellow_while_olive_stays_olive(self) -> None:
        # Same hue, both about half as light as a lemon in the sun; only olive's chroma is high for its lightness.
        self.assertEqual(_color_names.name_of((142, 126, 75)), "yellow")
        self.assertEqual(_color_names.name_of((128, 128, 20)), "olive")


if __name__ == "__main__":
    unittest.main()
