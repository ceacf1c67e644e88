"""The package surface the planner sees: names, docstrings, import cost."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
import unittest
from pathlib import Path

import argus

# Written out on purpose, the one full list: the package derives its __all__
# (partly from the tool catalogue), so this is what notices a name disappearing.
PUBLIC = [
    "load_image",
    "save_image",
    "view_image",
    "overlay_bounding_boxes",
    "overlay_segmentation_masks",
    "extract_frames_and_timestamps",
    "vqa",
    "suggestion",
    "ping",
    "search_tools",
    "decode_mask",
    "detect_objects",
    "detect_poses",
    "segment_people",
    "detect_faces",
    "detect_eyes",
    "detect_cat_faces",
    "detect_people",
    "detect_circles",
    "detect_blobs",
    "count_objects",
    "segment_color",
    "dominant_colors",
    "find_template",
    "read_qr_codes",
    "read_barcodes",
    "ocr",
    "read_text",
    "detect_edges",
    "find_contours",
    "detect_motion",
    "track_objects",
    "track_box",
    "describe",
    "classify",
    "get_tool_for_task",
]


class PackageSurfaceTest(unittest.TestCase):
    def test_star_import_gives_exactly_the_public_functions(self) -> None:
        self.assertEqual(sorted(argus.__all__), sorted(PUBLIC))
        namespace: dict = {}
        exec("from argus import *", namespace)
        self.assertEqual(sorted(name for name in namespace if name != "__builtins__"), sorted(PUBLIC))

    def test_module_docstring_lists_every_public_function(self) -> None:
        for name in PUBLIC:
            self.assertIn(f"{name}(", argus.__doc__)

    def test_public_functions_document_inputs_and_outputs(self) -> None:
        for name in PUBLIC:
            doc = getattr(argus, name).__doc__ or ""
            self.assertGreater(len(doc), 80, name)
            if name != "ping":
                self.assertIn("Args:", doc, name)
                self.assertIn("Returns:", doc, name)

    def test_every_module_has_a_docstring(self) -> None:
        for module_info in pkgutil.iter_modules(argus.__path__):
            module = importlib.import_module(f"argus.{module_info.name}")
            self.assertTrue((module.__doc__ or "").strip(), module_info.name)

    def test_import_is_light(self) -> None:
        # Kernels import argus at start; matplotlib, skimage and OpenCV (argus._cv2: about half
        # a CPU-second of every kernel's start) must stay out of that path.
        python_dir = Path(argus.__file__).resolve().parents[1]
        probe = "import sys, argus; print(sorted(m for m in ('matplotlib', 'skimage', 'IPython', 'cv2') if m in sys.modules))"
        result = subprocess.run(
            [sys.executable, "-c", probe],
            cwd=python_dir,
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        )
        self.assertEqual(result.stdout.strip(), "['IPython']")
