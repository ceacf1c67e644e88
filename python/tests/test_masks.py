"""overlay_segmentation_masks on the coins photo with a real (Otsu) segmentation."""

from __future__ import annotations

import numpy as np
from skimage.filters import threshold_otsu

from argus import overlay_segmentation_masks
from argus._drawing import PALETTE
from argus.overlays import _interior_point

from .support import WorkspaceTestCase, astronaut, coins


def coin_mask() -> np.ndarray:
    gray = coins()
    return gray > threshold_otsu(gray)


class SegmentationMaskTest(WorkspaceTestCase):
    def test_blend_only_inside_the_mask(self) -> None:
        photo = coins()
        mask = coin_mask()
        out = overlay_segmentation_masks(photo, [{"label": "", "mask": mask}])  # no text: no tag
        rgb = np.repeat(photo[:, :, None], 3, axis=2)
        self.assertEqual((out.shape, out.dtype), (rgb.shape, np.uint8))
        np.testing.assert_array_equal(out[~mask], rgb[~mask])
        changed = (out != rgb).any(axis=2)
        self.assertGreater(changed[mask].mean(), 0.95)
        # Tinted towards the first palette colour (red): red channel up, blue down on average.
        self.assertGreater(out[mask][:, 0].astype(int).mean(), rgb[mask][:, 0].astype(int).mean())

    def test_outline_inside_the_mask_edge(self) -> None:
        photo = np.full((100, 120, 3), 128, np.uint8)
        mask = np.zeros((100, 120), bool)
        mask[20:80, 30:90] = True
        out = overlay_segmentation_masks(photo, [{"mask": mask}])
        np.testing.assert_array_equal(out[50, 30], PALETTE[0])  # on the edge, inside
        np.testing.assert_array_equal(out[50, 89], PALETTE[0])
        np.testing.assert_array_equal(out[50, 29], photo[50, 29])  # just outside
        self.assertFalse((out[50, 60] == PALETTE[0]).all())  # interior is blended, not solid

    def test_label_tag_at_an_interior_point(self) -> None:
        photo = coins()
        mask = coin_mask()
        out = overlay_segmentation_masks(photo, [{"label": "coins", "score": 0.8, "mask": mask}])
        x, y = _interior_point(mask)
        self.assertTrue(mask[y, x])
        window = out[max(y - 8, 0) : y + 8, max(x - 20, 0) : x + 20].reshape(-1, 3)
        self.assertGreater((window == PALETTE[0]).all(axis=1).mean(), 0.3)

    def test_interior_point_of_a_ring_is_on_the_ring(self) -> None:
        yy, xx = np.mgrid[:200, :200]
        radius = np.hypot(yy - 100, xx - 100)
        ring = (radius > 60) & (radius < 90)
        x, y = _interior_point(ring)
        self.assertTrue(ring[y, x])

    def test_mask_encodings_agree(self) -> None:
        photo = coins()
        mask = coin_mask()
        expected = overlay_segmentation_masks(photo, [{"label": "c", "mask": mask}])
        encodings = (
            mask.astype(np.uint8),
            mask.astype(np.uint8) * 255,
            mask.astype(np.float32) * 0.9,
            mask.astype(np.float64) * 255,
            mask[:, :, None],
        )
        for encoded in encodings:
            np.testing.assert_array_equal(overlay_segmentation_masks(photo, [{"label": "c", "mask": encoded}]), expected)

    def test_two_labels_two_colours_and_input_untouched(self) -> None:
        photo = astronaut()
        before = photo.copy()
        left = np.zeros(photo.shape[:2], bool)
        left[100:200, 50:150] = True
        right = np.zeros(photo.shape[:2], bool)
        right[300:400, 350:450] = True
        out = overlay_segmentation_masks(photo, [{"label": "a", "mask": left}, {"label": "b", "mask": right}])
        np.testing.assert_array_equal(photo, before)
        np.testing.assert_array_equal(out[150, 50], PALETTE[0])
        np.testing.assert_array_equal(out[350, 350], PALETTE[1])

    def test_empty_mask_draws_nothing(self) -> None:
        photo = astronaut()
        out = overlay_segmentation_masks(photo, [{"label": "ghost", "score": 0.2, "mask": np.zeros((512, 512), bool)}])
        np.testing.assert_array_equal(out, photo)

    def test_large_image(self) -> None:
        big = np.full((3000, 4000, 3), 200, np.uint8)
        mask = np.zeros((3000, 4000), bool)
        mask[500:2500, 1000:3000] = True
        out = overlay_segmentation_masks(big, [{"label": "region", "score": 0.99, "mask": mask}])
        np.testing.assert_array_equal(out[1500, 1000], PALETTE[0])
        np.testing.assert_array_equal(out[100, 100], big[100, 100])


class SegmentationMaskValidationTest(WorkspaceTestCase):
    def assert_error(self, error: type, masks: object, *fragments: str) -> None:
        with self.assertRaises(error) as caught:
            overlay_segmentation_masks(coins(), masks)
        message = str(caught.exception)
        self.assertIn("overlay_segmentation_masks", message)
        for fragment in fragments:
            self.assertIn(fragment, message)

    def test_shape_mismatch_names_both_shapes(self) -> None:
        wrong = np.zeros((384, 303), bool)  # transposed
        self.assert_error(ValueError, [{"label": "c", "mask": wrong}], "masks[0]", "(384, 303)", "303x384")

    def test_structure_and_value_errors(self) -> None:
        self.assert_error(TypeError, [{"label": "c", "mask": [[0, 1]]}], "numpy array")
        self.assert_error(ValueError, [{"label": "c", "segmentation": coin_mask()}], "no 'mask' key")
        self.assert_error(TypeError, "mask", "list of dicts")
        self.assert_error(ValueError, [{"mask": coin_mask().astype(np.int8) - 1}], "negative")
        self.assert_error(ValueError, [{"mask": coin_mask() * 300.0}], "[0, 1]")
