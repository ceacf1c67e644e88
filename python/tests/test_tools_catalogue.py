"""The tool catalogue (TOOLS), its search, and the model-backed tools over a fake bridge."""

from __future__ import annotations

import builtins
import importlib
import inspect
import json
import pkgutil
import time
import unittest
from pathlib import Path
from typing import Any, List
from unittest import mock

import numpy as np
from PIL import Image
from skimage import data

import argus
import argus.tools
from argus.bridge import PREFIX, BridgeError
from argus.tools import TOOLS, search_tools, try_tools

from .support import WorkspaceTestCase

TOOL_FUNCTIONS = argus.tools.TOOL_NAMES


class CatalogueTest(unittest.TestCase):
    def test_every_tool_is_registered_and_exported(self) -> None:
        self.assertEqual(sorted(TOOL_FUNCTIONS), sorted(name for name in TOOLS if name != "vqa"))
        self.assertIn("vqa", TOOLS)
        for name in TOOL_FUNCTIONS + ["search_tools"]:
            self.assertIn(name, argus.tools.__all__)
            self.assertIn(name, argus.__all__)
            self.assertIs(getattr(argus, name), getattr(argus.tools, name))
        for name in TOOL_FUNCTIONS:
            self.assertIs(getattr(argus.tools, name), TOOLS[name].function)

    def test_entries_document_inputs_outputs_and_when_to_use(self) -> None:
        for name, info in TOOLS.items():
            with self.subTest(tool=name):
                self.assertEqual(info.name, name)
                self.assertTrue(callable(info.function))
                doc = inspect.getdoc(info.function) or ""
                for section in ("Args:", "Returns:"):
                    self.assertIn(section, doc)
                if name != "vqa":  # vqa predates the catalogue and says "When to use:" at the end
                    self.assertIn("When to use", doc)
                self.assertNotIn("\n", info.summary)
                self.assertLess(len(info.summary), 120)
                self.assertGreaterEqual(len(info.keywords), 3)
                self.assertTrue(info.doc.startswith(f"{name}("))
                self.assertIn(info.category, {"detection", "counting", "segmentation", "ocr", "codes", "measurement", "video", "model"})

    def test_detection_tools_take_a_box_threshold(self) -> None:
        # The human-review flow lowers box_threshold on every tool that has one.
        for name in ("detect_faces", "detect_eyes", "detect_cat_faces", "detect_people", "detect_circles",
                     "detect_blobs", "find_template", "ocr", "track_box"):
            parameter = inspect.signature(TOOLS[name].function).parameters.get("box_threshold")
            self.assertIsNotNone(parameter, name)
            self.assertTrue(0 <= parameter.default <= 1, name)

    def test_every_tools_module_has_a_docstring(self) -> None:
        for module_info in pkgutil.iter_modules(argus.tools.__path__):
            module = importlib.import_module(f"argus.tools.{module_info.name}")
            self.assertTrue((module.__doc__ or "").strip(), module_info.name)

    def test_package_docstring_lists_every_tool_with_its_signature_start(self) -> None:
        for name in TOOL_FUNCTIONS + ["search_tools"]:
            first_parameter = next(iter(inspect.signature(getattr(argus, name)).parameters))
            self.assertIn(f"{name}({first_parameter}", argus.__doc__)


class SearchTest(unittest.TestCase):
    EXPECTED = [
        ("count the coins on the table", {"count_objects", "detect_circles"}),
        ("how many people are walking in the street", {"detect_people"}),
        ("read the serial number printed on the label", {"ocr", "read_text"}),
        ("what does the sign say", {"read_text"}),
        ("find all the red cars", {"segment_color"}),
        ("track the cars in the video and count how many pass", {"track_objects"}),
        ("is there a cat in the photo", {"detect_cat_faces"}),
        ("decode the QR code on the poster", {"read_qr_codes"}),
        ("scan the product barcode", {"read_barcodes"}),
        ("what colour is the shirt", {"dominant_colors"}),
        ("measure the area and orientation of each leaf", {"find_contours"}),
        ("find every copy of this logo", {"find_template"}),
        ("describe the scene", {"describe"}),
        ("is the fruit ripe or unripe, classify it", {"classify"}),
        ("how many cells are in the microscope image", {"detect_blobs", "count_objects"}),
        ("detect faces and blur them", {"detect_faces"}),
        ("did anything move in the security footage", {"detect_motion"}),
        ("outline the cracks in the wall", {"detect_edges", "find_contours"}),
        ("are the eyes open", {"detect_eyes"}),
        ("Pedestrians crossing", {"detect_people"}),
    ]

    def test_everyday_tasks_find_the_right_tool_in_the_top_three(self) -> None:
        for task, wanted in self.EXPECTED:
            with self.subTest(task=task):
                top = search_tools(task, k=3)
                self.assertTrue(wanted & set(top), f"{task!r} -> {top}")

    def test_results_are_catalogue_names_limited_to_k_and_stable(self) -> None:
        names = search_tools("count the coins", k=2)
        self.assertEqual(len(names), 2)
        self.assertTrue(set(names) <= set(TOOLS))
        self.assertEqual(names, search_tools("count the coins", k=2))
        self.assertEqual(search_tools("COUNT the COINS!", k=2), names)
        self.assertEqual(len(search_tools("detect find image", k=50)), len(set(search_tools("detect find image", k=50))))

    def test_unrelated_words_give_nothing(self) -> None:
        self.assertEqual(search_tools("zxqv wplk"), [])

    def test_excluded_tools_are_left_out(self) -> None:
        first = search_tools("count the coins", k=1)[0]
        rest = search_tools("count the coins", k=3, exclude=[first])
        self.assertNotIn(first, rest)
        self.assertEqual(len(rest), 3)


class TryToolsTest(WorkspaceTestCase):
    """try_tools: how the server's get_tool_for_task runs candidates in the kernel."""

    def test_candidates_run_on_every_image_and_the_report_is_json(self) -> None:
        Image.fromarray(data.coins()).save("coins.png")
        report = try_tools(["count_objects", "detect_circles", "segment_color", "no_such_tool"], ["coins.png", "missing.png"])
        json.dumps(report)  # the server reads it as JSON
        for name in ("count_objects", "detect_circles"):
            ok, failed = report[name]["runs"]
            self.assertEqual((ok["image"], ok["count"]), (0, 24))
            self.assertTrue(failed["error"].startswith("FileNotFoundError: "), failed)
            self.assertTrue(report[name]["signature"].startswith(f"{name}(image"))
        mask = report["count_objects"]["runs"][0]["output"][0]["mask"]
        self.assertRegex(mask, r"^<bool array 303x384, \d+ True>$")
        self.assertIn("color", report["segment_color"]["skipped"])
        self.assertIn("unknown tool", report["no_such_tool"]["error"])

    def test_box_threshold_is_passed_only_to_tools_that_have_one(self) -> None:
        strict = try_tools(["detect_circles", "count_objects"], data.coins(), box_threshold=0.99)
        loose = try_tools(["detect_circles", "count_objects"], data.coins(), box_threshold=0.05)
        self.assertLess(strict["detect_circles"]["runs"][0]["count"], loose["detect_circles"]["runs"][0]["count"])
        self.assertEqual(strict["count_objects"]["runs"][0]["count"], 24)

    def test_detections_come_back_as_plain_boxes(self) -> None:
        report = try_tools(["detect_circles"], [data.coins()], box_threshold=0.05, max_items=100)
        run = report["detect_circles"]["runs"][0]
        self.assertEqual(len(run["boxes"]), run["count"])
        box = run["boxes"][0]
        self.assertEqual(len(box["bbox"]), 4)
        self.assertTrue(all(isinstance(v, float) for v in box["bbox"]))
        self.assertIsInstance(box["score"], float)
        json.dumps(report)

    def test_a_slow_candidate_is_stopped_and_reported(self) -> None:
        # A real tool on a large picture cannot finish in 10 ms; the limit stops it
        # and the report says so, while a run without a limit on the same tool works.
        big = np.tile(data.coins(), (4, 4))
        started = time.monotonic()
        report = try_tools(["detect_circles"], [big], time_limit=0.01)
        self.assertEqual(report["detect_circles"]["runs"][0]["error"], "took longer than 0.01 s")
        self.assertLess(time.monotonic() - started, 5)
        self.assertEqual(try_tools(["detect_circles"], [data.coins()])["detect_circles"]["runs"][0]["count"], 24)
        with self.assertRaises(ValueError):
            try_tools(["detect_circles"], [big], time_limit=0)

    def test_long_outputs_are_cut_but_counted(self) -> None:
        report = try_tools(["detect_circles"], [data.coins()], max_items=3)
        run = report["detect_circles"]["runs"][0]
        self.assertEqual(run["count"], 24)
        self.assertEqual(len(run["output"]), 4)
        self.assertEqual(run["output"][-1], "... 21 more")


class FakeServer:
    """Stands in for the Argus server behind builtins.input; records requests."""

    def __init__(self, result: Any) -> None:
        self.result = result
        self.requests: List[dict] = []

    def __call__(self, prompt: str = "") -> str:
        request = json.loads(prompt[len(PREFIX) :])
        self.requests.append(request)
        result = self.result(request) if callable(self.result) else self.result
        return json.dumps({"id": request["id"], "result": result})


class ModelToolsTest(WorkspaceTestCase):
    def serve(self, result: Any) -> FakeServer:
        server = FakeServer(result)
        patch = mock.patch.object(builtins, "input", server)
        patch.start()
        self.addCleanup(patch.stop)
        return server

    def test_describe_sends_a_shrunk_png_and_returns_the_text(self) -> None:
        server = self.serve(" An astronaut in a white suit. ")
        big = np.repeat(np.repeat(data.astronaut(), 4, axis=0), 4, axis=1)  # 2048x2048
        self.assertEqual(argus.describe(big, focus="the suit"), "An astronaut in a white suit.")
        (request,) = server.requests
        self.assertEqual(request["method"], "describe")
        self.assertEqual(request["params"]["focus"], "the suit")
        path = Path(request["params"]["image"])
        self.assertFalse(path.is_absolute())
        with Image.open(path) as sent:
            self.assertEqual((sent.format, sent.size), ("PNG", (1568, 1568)))

    def test_describe_refuses_an_empty_answer(self) -> None:
        self.serve("")
        with self.assertRaises(BridgeError) as caught:
            argus.describe(data.coins())
        self.assertIn("describe", str(caught.exception))

    def test_classify_returns_every_label_best_first(self) -> None:
        server = self.serve([{"label": "dog", "score": 0.1}, {"label": "CAT", "score": 0.85}])
        result = argus.classify(data.chelsea(), ["cat", "dog", "other"])
        self.assertEqual(result, [{"label": "cat", "score": 0.85}, {"label": "dog", "score": 0.1}, {"label": "other", "score": 0.0}])
        params = server.requests[0]["params"]
        self.assertEqual((params["labels"], params["multi_label"]), (["cat", "dog", "other"], False))

    def test_classify_accepts_a_label_to_score_object(self) -> None:
        self.serve({"open": 0.3, "closed": 0.7})
        self.assertEqual(argus.classify(data.coins(), ["open", "closed"], multi_label=True)[0]["label"], "closed")

    def test_classify_rejects_malformed_answers(self) -> None:
        for answer, fragment in (
            ("cat", "expected a list"),
            ([{"label": "cat"}], "score"),
            ([{"label": "lion", "score": 0.9}], "not among"),
            ([["cat", 0.9]], "expected {'label'"),
        ):
            with self.subTest(answer=answer):
                self.serve(answer)
                with self.assertRaises(BridgeError) as caught:
                    argus.classify(data.coins(), ["cat", "dog"])
                self.assertIn(fragment, str(caught.exception))

    def test_server_errors_reach_the_caller(self) -> None:
        def failing(prompt: str = "") -> str:
            request = json.loads(prompt[len(PREFIX) :])
            return json.dumps({"id": request["id"], "error": {"message": "describe: no vision model is configured"}})

        with mock.patch.object(builtins, "input", failing):
            with self.assertRaises(BridgeError) as caught:
                argus.describe(data.coins())
        self.assertIn("no vision model", str(caught.exception))
