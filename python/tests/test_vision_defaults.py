"""The defaults of detect_people, detect_faces and read_text (method="auto"): which path runs
with and without a reachable server, and read_text's rule for rereading with Tesseract
(choose_reader, a pure function of the neural reader's lines)."""

from __future__ import annotations

import contextlib
import io
import os
import unittest
from unittest import mock

from argus.tools import neural
from argus.tools.ocr import MIN_LETTERS, PAGE_LINES, choose_reader


def _line(text: str, score: float = 0.95) -> dict:
    return {"text": text, "score": score, "bbox": [0, 0, 10 * len(text), 20]}


class ChooseReaderTest(unittest.TestCase):
    def test_a_sign_read_with_confidence_keeps_the_neural_reading(self) -> None:
        self.assertEqual(choose_reader([_line("HOTEL", 1.0)]), "neural")
        self.assertEqual(choose_reader([_line("NOTICE"), _line("DOUBLE"), _line("PARKING")]), "neural")

    def test_nothing_read_goes_to_tesseract(self) -> None:
        # The quarter-turned page of the real-photo set: the neural reader finds no line.
        self.assertEqual(choose_reader([]), "tesseract")

    def test_a_few_letters_or_only_unsure_lines_are_a_weak_reading(self) -> None:
        self.assertEqual(choose_reader([_line("a" * (MIN_LETTERS - 1))]), "tesseract")
        self.assertEqual(choose_reader([_line("a" * MIN_LETTERS)]), "neural")
        self.assertEqual(choose_reader([_line("Stationery Box", 0.3)]), "tesseract")
        # Punctuation is not text read.
        self.assertEqual(choose_reader([_line("-.-.-.")]), "tesseract")

    def test_a_page_of_lines_goes_to_tesseract(self) -> None:
        page = [_line("technical details are too complex to cover") for _ in range(PAGE_LINES)]
        self.assertEqual(choose_reader(page), "tesseract")
        self.assertEqual(choose_reader(page[:-1]), "neural")

    def test_odd_line_entries_do_not_crash_the_rule(self) -> None:
        self.assertEqual(choose_reader([{"text": "GM125"}]), "tesseract")  # no score: not sure
        self.assertEqual(choose_reader([{"score": 0.9}]), "tesseract")


class ByMethodTest(unittest.TestCase):
    def setUp(self) -> None:
        neural._warned.clear()
        self.addCleanup(neural._warned.clear)

    def _run(self, method: str, neural_path=lambda: "neural", env=None) -> tuple:
        note = io.StringIO()
        with mock.patch.dict(os.environ, env or {}, clear=True), contextlib.redirect_stderr(note):
            chosen = neural.by_method(method, "detect_people", neural_path, lambda: "classical")
        return chosen, note.getvalue()

    def test_auto_notes_classical_once_per_tool(self) -> None:
        first = self._run("auto")
        second = self._run("auto")
        self.assertEqual(first[0], "classical")
        self.assertIn("detect_people: method='auto' ran the classical tool (no Argus server reachable", first[1])
        self.assertEqual(second, ("classical", ""))

    def test_auto_with_argus_url_runs_neural_silently(self) -> None:
        self.assertEqual(self._run("auto", env={"ARGUS_URL": "http://h:1"}), ("neural", ""))

    def test_auto_falls_back_when_the_server_fails_but_neural_raises(self) -> None:
        def failing() -> str:
            raise neural.VisionToolError("detect_people: models missing", 503)

        chosen, note = self._run("auto", failing, {"ARGUS_URL": "http://h:1"})
        self.assertEqual(chosen, "classical")
        self.assertIn("models missing", note)
        with self.assertRaises(neural.VisionToolError):
            self._run("neural", failing, {"ARGUS_URL": "http://h:1"})

    def test_auto_in_a_kernel_whose_bridge_refuses_runs_classical(self) -> None:
        def refused() -> str:
            raise neural.bridge.BridgeError("the bridge is not available (stdin not allowed)")

        chosen, note = self._run("auto", refused, {"ARGUS_URL": "http://h:1"})
        self.assertEqual(chosen, "classical")
        self.assertIn("bridge is not available", note)

    def test_explicit_methods_run_their_path_without_a_note(self) -> None:
        self.assertEqual(self._run("classical", env={"ARGUS_URL": "http://h:1"}), ("classical", ""))
        self.assertEqual(self._run(" Neural "), ("neural", ""))

    def test_a_value_error_from_the_server_is_not_hidden_by_auto(self) -> None:
        def refused() -> str:
            raise ValueError("detect_people: box_threshold out of range")

        with self.assertRaisesRegex(ValueError, "box_threshold"):
            self._run("auto", refused, {"ARGUS_URL": "http://h:1"})


if __name__ == "__main__":
    unittest.main()
