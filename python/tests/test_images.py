"""load_image / save_image / to_png_bytes on real images and every input type."""

from __future__ import annotations

import io
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # headless: no display in test runs
import matplotlib.pyplot as plt
import numpy as np
from PIL import Image

from argus import load_image, save_image
from argus.images import fit_within, to_pil, to_png_bytes

from .support import WorkspaceTestCase, astronaut, chelsea, coins

EXIF_ORIENTATION = 0x0112


class LoadFromFileTest(WorkspaceTestCase):
    def test_png_path_str_and_pathlib(self) -> None:
        photo = chelsea()
        Image.fromarray(photo).save("cat.png")
        for path in ("cat.png", Path("cat.png"), self.workspace / "cat.png"):
            loaded = load_image(path)
            self.assertEqual(loaded.dtype, np.uint8)
            np.testing.assert_array_equal(loaded, photo)

    def test_jpeg_exif_rotation_is_applied(self) -> None:
        # Stored 60 wide x 40 high with a red top-left corner; orientation 6 means
        # "rotate 90 degrees clockwise to display", so the red corner ends up top-right.
        stored = np.full((40, 60, 3), 200, np.uint8)
        stored[:10, :10] = (255, 0, 0)
        exif = Image.Exif()
        exif[EXIF_ORIENTATION] = 6
        Image.fromarray(stored).save("phone.jpg", exif=exif, quality=95)

        loaded = load_image("phone.jpg")
        self.assertEqual(loaded.shape, (60, 40, 3))
        top_right = loaded[2:8, -8:-2].reshape(-1, 3).mean(axis=0)
        top_left = loaded[2:8, 2:8].reshape(-1, 3).mean(axis=0)
        self.assertGreater(top_right[0], 200)
        self.assertLess(top_right[1], 60)
        self.assertLess(abs(top_left[0] - top_left[1]), 30)  # gray, not red

    def test_gray_png_becomes_three_equal_channels(self) -> None:
        Image.fromarray(coins()).save("coins.png")
        loaded = load_image("coins.png")
        self.assertEqual(loaded.shape, coins().shape + (3,))
        for channel in range(3):
            np.testing.assert_array_equal(loaded[:, :, channel], coins())

    def test_16_bit_png_is_scaled_to_8_bit(self) -> None:
        values = np.array([[0, 257 * 100, 65535]], dtype=np.uint16)
        Image.fromarray(values).save("deep.png")
        loaded = load_image("deep.png")
        np.testing.assert_array_equal(loaded[0, :, 0], [0, 100, 255])

    def test_rgba_png_composited_on_white(self) -> None:
        rgba = np.zeros((4, 4, 4), np.uint8)
        rgba[..., 0] = 255
        rgba[:2, :, 3] = 255  # top half opaque red, bottom half transparent
        Image.fromarray(rgba, "RGBA").save("logo.png")
        loaded = load_image("logo.png")
        np.testing.assert_array_equal(loaded[0, 0], [255, 0, 0])
        np.testing.assert_array_equal(loaded[3, 3], [255, 255, 255])

    def test_missing_file_names_path_and_lists_workspace(self) -> None:
        for index in range(13):
            Path(f"file{index:02d}.png").write_bytes(b"x")
        with self.assertRaises(FileNotFoundError) as caught:
            load_image("missing.png")
        message = str(caught.exception)
        self.assertIn("load_image", message)
        self.assertIn("missing.png", message)
        self.assertIn("file00.png", message)
        self.assertIn("file09.png", message)
        self.assertNotIn("file10.png", message)  # at most 10 listed
        self.assertIn("3 more", message)

    def test_missing_file_in_empty_workspace(self) -> None:
        with self.assertRaises(FileNotFoundError) as caught:
            load_image("nothing.jpg")
        self.assertIn("empty", str(caught.exception))

    def test_corrupt_file_is_a_value_error_naming_it(self) -> None:
        Path("broken.png").write_bytes(b"\x89PNG\r\n\x1a\n this is not really a png")
        with self.assertRaises(ValueError) as caught:
            load_image("broken.png")
        self.assertIn("broken.png", str(caught.exception))

    def test_text_file_is_a_value_error(self) -> None:
        Path("notes.jpg").write_text("hello")
        with self.assertRaises(ValueError) as caught:
            load_image("notes.jpg")
        self.assertIn("notes.jpg", str(caught.exception))

    def test_video_file_hint(self) -> None:
        Path("clip.mp4").write_bytes(b"\x00" * 64)
        with self.assertRaises(ValueError) as caught:
            load_image("clip.mp4")
        self.assertIn("extract_frames_and_timestamps", str(caught.exception))

    def test_directory_is_rejected_with_its_contents(self) -> None:
        Path("uploads").mkdir()
        Path("uploads/a.png").write_bytes(b"x")
        with self.assertRaises(IsADirectoryError) as caught:
            load_image("uploads")
        self.assertIn("a.png", str(caught.exception))


class LoadFromMemoryTest(WorkspaceTestCase):
    def test_rgb_array_is_copied_not_shared(self) -> None:
        photo = astronaut()
        loaded = load_image(photo)
        np.testing.assert_array_equal(loaded, photo)
        self.assertFalse(np.shares_memory(loaded, photo))
        loaded[:] = 0
        self.assertGreater(int(photo.max()), 0)

    def test_pil_images_of_several_modes(self) -> None:
        photo = chelsea()
        np.testing.assert_array_equal(load_image(Image.fromarray(photo)), photo)
        gray = load_image(Image.fromarray(coins(), "L"))
        np.testing.assert_array_equal(gray[:, :, 1], coins())
        palette = Image.fromarray(photo).convert("P")
        self.assertEqual(load_image(palette).shape, photo.shape)
        cmyk = Image.fromarray(photo).convert("CMYK")
        self.assertEqual(load_image(cmyk).shape, photo.shape)

    def test_gray_array_2d_and_single_channel(self) -> None:
        gray = coins()
        for array in (gray, gray[:, :, None]):
            loaded = load_image(array)
            self.assertEqual(loaded.shape, gray.shape + (3,))
            np.testing.assert_array_equal(loaded[:, :, 2], gray)

    def test_rgba_array_alpha_blend(self) -> None:
        rgba = np.zeros((2, 2, 4), np.uint8)
        rgba[..., 2] = 255  # blue
        rgba[0, 0, 3] = 255
        rgba[0, 1, 3] = 0
        rgba[1, 0, 3] = 128
        loaded = load_image(rgba)
        np.testing.assert_array_equal(loaded[0, 0], [0, 0, 255])
        np.testing.assert_array_equal(loaded[0, 1], [255, 255, 255])
        np.testing.assert_array_equal(loaded[1, 0], [127, 127, 255])

    def test_gray_alpha_array(self) -> None:
        gray_alpha = np.zeros((2, 2, 2), np.uint8)
        gray_alpha[..., 1] = 255
        np.testing.assert_array_equal(load_image(gray_alpha), np.zeros((2, 2, 3), np.uint8))

    def test_16_bit_array(self) -> None:
        values = np.array([[0, 257, 257 * 128, 65535]], dtype=np.uint16)
        np.testing.assert_array_equal(load_image(values)[0, :, 0], [0, 1, 128, 255])

    def test_float_arrays_in_unit_and_byte_ranges(self) -> None:
        unit = astronaut().astype(np.float32) / 255.0
        np.testing.assert_array_equal(load_image(unit), astronaut())
        byte_range = astronaut().astype(np.float64)
        np.testing.assert_array_equal(load_image(byte_range), astronaut())

    def test_bool_array(self) -> None:
        mask = np.array([[True, False]])
        np.testing.assert_array_equal(load_image(mask)[0, :, 0], [255, 0])

    def test_int64_array_in_byte_range(self) -> None:
        np.testing.assert_array_equal(load_image(coins().astype(np.int64)), load_image(coins()))

    def test_video_frame_dict(self) -> None:
        frame = {"frame": chelsea(), "timestamp": 1.5}
        np.testing.assert_array_equal(load_image(frame), chelsea())

    def test_matplotlib_figure_and_axes(self) -> None:
        figure, axes = plt.subplots(figsize=(4, 3), dpi=50)
        axes.imshow(coins(), cmap="gray")
        try:
            from_figure = load_image(figure)
            from_axes = load_image(axes)
            from_image_artist = load_image(axes.images[0])
        finally:
            plt.close(figure)
        self.assertEqual(from_figure.shape, (150, 200, 3))
        np.testing.assert_array_equal(from_figure, from_axes)
        np.testing.assert_array_equal(from_figure, from_image_artist)

    def test_subplots_axes_array(self) -> None:
        figure, axes = plt.subplots(1, 2, figsize=(4, 2), dpi=25)
        try:
            self.assertEqual(load_image(axes).shape, (50, 100, 3))
        finally:
            plt.close(figure)


class LoadRejectsBadInputTest(WorkspaceTestCase):
    def assert_value_error(self, value: object, *fragments: str) -> None:
        with self.assertRaises(ValueError) as caught:
            load_image(value)
        for fragment in fragments:
            self.assertIn(fragment, str(caught.exception))

    def test_wrong_type_names_argument_and_type(self) -> None:
        for value, type_text in ((42, "int"), ([[1, 2]], "list"), (None, "NoneType"), (b"png", "bytes")):
            with self.assertRaises(TypeError) as caught:
                load_image(value)
            message = str(caught.exception)
            self.assertIn("load_image: image must be", message)
            self.assertIn(type_text, message)

    def test_empty_path(self) -> None:
        self.assert_value_error("", "load_image", "image")

    def test_out_of_range_values(self) -> None:
        self.assert_value_error(np.full((2, 2), 300, np.int64), "0..255", "300")
        self.assert_value_error(np.full((2, 2), -5.0), "[0, 1]", "-5")
        self.assert_value_error(np.array([[0.5, np.nan]]), "NaN")

    def test_bad_shapes(self) -> None:
        self.assert_value_error(np.zeros((3, 20, 30), np.uint8), "channel-first", "(3, 20, 30)")
        self.assert_value_error(np.zeros((4, 4, 5), np.uint8), "(4, 4, 5)")
        self.assert_value_error(np.zeros((0, 4), np.uint8), "(0, 4)")
        self.assert_value_error(np.zeros(5, np.uint8), "(5,)")

    def test_complex_dtype(self) -> None:
        self.assert_value_error(np.zeros((2, 2), np.complex64), "dtype")


class SaveImageTest(WorkspaceTestCase):
    def test_png_round_trip_is_exact(self) -> None:
        written = save_image(astronaut(), "out.png")
        self.assertEqual(written, "out.png")
        np.testing.assert_array_equal(load_image(written), astronaut())
        self.assertEqual(Path(written).read_bytes()[:8], b"\x89PNG\r\n\x1a\n")

    def test_jpeg_round_trip_is_close(self) -> None:
        for name in ("out.jpg", "out.JPEG"):
            written = save_image(chelsea(), name)
            self.assertEqual(Path(written).read_bytes()[:2], b"\xff\xd8")
            difference = np.abs(load_image(written).astype(int) - chelsea().astype(int)).mean()
            self.assertLess(difference, 3.0)

    def test_no_extension_defaults_to_png(self) -> None:
        written = save_image(coins(), "result")
        self.assertEqual(written, "result.png")
        with Image.open(written) as picture:
            self.assertEqual(picture.format, "PNG")

    def test_creates_parent_directories_inside_workspace(self) -> None:
        written = save_image(coins(), Path("runs/1/overlay.png"))
        self.assertTrue((self.workspace / "runs/1/overlay.png").is_file())
        self.assertEqual(written, str(Path("runs/1/overlay.png")))

    def test_refuses_to_create_directories_outside_workspace(self) -> None:
        outside = self.workspace.parent / f"{self.workspace.name}-elsewhere" / "x.png"
        with self.assertRaises(FileNotFoundError) as caught:
            save_image(coins(), outside)
        self.assertIn("outside the workspace", str(caught.exception))
        self.assertFalse(outside.parent.exists())

    def test_unsupported_extension_names_path(self) -> None:
        with self.assertRaises(ValueError) as caught:
            save_image(coins(), "out.gifx")
        self.assertIn("out.gifx", str(caught.exception))
        self.assertIn(".png", str(caught.exception))

    def test_bad_arguments(self) -> None:
        with self.assertRaises(TypeError) as caught:
            save_image(coins(), 7)
        self.assertIn("save_image: path", str(caught.exception))
        with self.assertRaises(TypeError) as caught:
            save_image({"a": 1}, "x.png")
        self.assertIn("save_image: image", str(caught.exception))
        Path("folder.png").mkdir()
        with self.assertRaises(IsADirectoryError):
            save_image(coins(), "folder.png")

    def test_rgba_saved_as_rgb_on_white(self) -> None:
        rgba = np.zeros((3, 3, 4), np.uint8)
        save_image(rgba, "clear.png")
        with Image.open("clear.png") as picture:
            self.assertEqual(picture.mode, "RGB")
        np.testing.assert_array_equal(load_image("clear.png"), np.full((3, 3, 3), 255, np.uint8))


class EncodingHelpersTest(WorkspaceTestCase):
    def test_to_png_bytes_and_max_edge(self) -> None:
        full = Image.open(io.BytesIO(to_png_bytes(chelsea())))
        self.assertEqual(full.size, (451, 300))
        small = Image.open(io.BytesIO(to_png_bytes(chelsea(), max_edge=100)))
        self.assertEqual(small.size, (100, 67))

    def test_to_png_bytes_from_figure(self) -> None:
        figure = plt.figure(figsize=(2, 1), dpi=40)
        try:
            self.assertEqual(Image.open(io.BytesIO(to_png_bytes(figure))).size, (80, 40))
        finally:
            plt.close(figure)

    def test_to_pil(self) -> None:
        picture = to_pil(coins())
        self.assertEqual((picture.mode, picture.size), ("RGB", (384, 303)))

    def test_fit_within_rejects_bad_max_edge(self) -> None:
        for bad in (0, -3, 2.5, True, "100"):
            with self.assertRaises(ValueError) as caught:
                fit_within(astronaut(), bad)
            self.assertIn("max_edge", str(caught.exception))
