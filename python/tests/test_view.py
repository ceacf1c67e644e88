"""view_image: no-op outside IPython, and the exact display payload inside it."""

from __future__ import annotations

import base64
import contextlib
import io
from typing import Any, Dict, List
from unittest import mock

import IPython
import IPython.display
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

import numpy as np
from PIL import Image

from argus import view_image
from argus.view import VIEW_MAX_EDGE

from .support import WorkspaceTestCase, chelsea, coins

# Load the backend now, outside the stand-in IPython below: pyplot loads it on the first figure and,
# finding an IPython, would hook into it (this module alone in its process hit that).
plt.switch_backend("Agg")


class DisplayRecorder:
    """Stands in for IPython.display.display and keeps every call."""

    def __init__(self) -> None:
        self.calls: List[Dict[str, Any]] = []

    def __call__(self, *objects: Any, **options: Any) -> None:
        self.calls.append({"objects": objects, "options": options})

    def png(self, index: int) -> Image.Image:
        bundle = self.calls[index]["objects"][0]
        return Image.open(io.BytesIO(base64.b64decode(bundle["image/png"])))


class ViewOutsideIPythonTest(WorkspaceTestCase):
    def test_returns_none_without_displaying_or_printing(self) -> None:
        recorder = DisplayRecorder()
        printed = io.StringIO()
        with mock.patch.object(IPython.display, "display", recorder), contextlib.redirect_stdout(printed):
            self.assertIsNone(IPython.get_ipython())
            self.assertIsNone(view_image(chelsea(), title="cat"))
        self.assertEqual(recorder.calls, [])
        self.assertEqual(printed.getvalue(), "")

    def test_input_is_still_checked(self) -> None:
        with self.assertRaises(TypeError) as caught:
            view_image(12)
        self.assertIn("view_image: obj must be", str(caught.exception))
        with self.assertRaises(TypeError) as caught:
            view_image(chelsea(), title=3)
        self.assertIn("view_image: title", str(caught.exception))
        with self.assertRaises(FileNotFoundError) as caught:
            view_image("nope.png")
        self.assertIn("view_image", str(caught.exception))
        with self.assertRaises(ValueError):
            view_image([])


class ViewInsideIPythonTest(WorkspaceTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.recorder = DisplayRecorder()
        patches = (
            mock.patch.object(IPython, "get_ipython", return_value=object()),
            mock.patch.object(IPython.display, "display", self.recorder),
        )
        for patch in patches:
            patch.start()
            self.addCleanup(patch.stop)

    def test_payload_for_an_array(self) -> None:
        self.assertIsNone(view_image(chelsea(), title="the cat"))
        self.assertEqual(len(self.recorder.calls), 1)
        call = self.recorder.calls[0]
        bundle = call["objects"][0]
        self.assertEqual(set(bundle), {"image/png", "text/plain"})
        self.assertEqual(bundle["text/plain"], "<argus image: 451x300 the cat>")
        self.assertEqual(call["options"]["raw"], True)
        self.assertEqual(
            call["options"]["metadata"],
            {"argus": {"view": True, "title": "the cat", "width": 451, "height": 300}},
        )
        picture = self.recorder.png(0)
        self.assertEqual((picture.format, picture.size), ("PNG", (451, 300)))
        np.testing.assert_array_equal(np.asarray(picture.convert("RGB")), chelsea())

    def test_no_title(self) -> None:
        view_image(coins())
        call = self.recorder.calls[0]
        self.assertEqual(call["objects"][0]["text/plain"], "<argus image: 384x303>")
        self.assertIsNone(call["options"]["metadata"]["argus"]["title"])

    def test_large_image_is_shrunk_but_caption_keeps_original_size(self) -> None:
        big = np.zeros((2500, 3000, 3), np.uint8)
        view_image(big)
        self.assertEqual(self.recorder.png(0).size, (VIEW_MAX_EDGE, round(2500 * VIEW_MAX_EDGE / 3000)))
        self.assertEqual(self.recorder.calls[0]["objects"][0]["text/plain"], "<argus image: 3000x2500>")

    def test_pil_path_and_video_frame(self) -> None:
        Image.fromarray(coins()).save("coins.png")
        view_image(Image.fromarray(chelsea()))
        view_image("coins.png")
        view_image({"frame": chelsea(), "timestamp": 0.5})
        self.assertEqual(len(self.recorder.calls), 3)
        self.assertEqual(self.recorder.png(1).size, (384, 303))
        self.assertEqual(self.recorder.calls[2]["objects"][0]["text/plain"], "<argus image: 451x300 t=0.50s>")

    def test_matplotlib_figure_axes_and_list(self) -> None:
        figure, axes = plt.subplots(figsize=(3, 2), dpi=40)
        axes.plot([0, 1], [1, 0])
        try:
            view_image(figure)
            view_image(axes)
            view_image([figure, axes])  # same figure twice: shown once
            view_image([chelsea(), coins()], title="pair")
        finally:
            plt.close(figure)
        self.assertEqual(len(self.recorder.calls), 5)
        for index in range(3):
            self.assertEqual(self.recorder.png(index).size, (120, 80))
        self.assertEqual(self.recorder.calls[3]["objects"][0]["text/plain"], "<argus image: 451x300 pair>")
        self.assertEqual(self.recorder.calls[4]["objects"][0]["text/plain"], "<argus image: 384x303 pair>")

    def test_bad_list_element_is_named(self) -> None:
        with self.assertRaises(TypeError) as caught:
            view_image([chelsea(), 5])
        self.assertIn("obj[1]", str(caught.exception))
        self.assertEqual(self.recorder.calls, [])  # nothing shown when any element is bad
