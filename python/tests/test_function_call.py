"""function_call: safe JSON conversion, the output cap, and the published outcome."""

from __future__ import annotations

import json
import math
import os
import tempfile
import unittest
from pathlib import Path
from typing import Any, Dict, List
from unittest import mock

import numpy as np

from argus import function_call
from argus.function_call import RESULT_MIME, CappedStream, OutputTooLarge, call_function, to_json_safe


class ToJsonSafeTest(unittest.TestCase):
    def test_numpy_scalars_become_python_numbers(self) -> None:
        self.assertEqual(to_json_safe(np.int64(7)), 7)
        self.assertIsInstance(to_json_safe(np.int64(7)), int)
        self.assertEqual(to_json_safe(np.float32(0.5)), 0.5)
        self.assertIs(to_json_safe(np.bool_(True)), True)

    def test_arrays_tuples_and_nesting(self) -> None:
        value = {"boxes": np.array([[1, 2], [3, 4]], dtype=np.uint8), "pair": (1, np.float64(2.5)), 3: [np.int32(1)]}
        self.assertEqual(to_json_safe(value), {"boxes": [[1, 2], [3, 4]], "pair": [1, 2.5], "3": [1]})

    def test_nan_and_infinities_become_null(self) -> None:
        out = to_json_safe([math.nan, math.inf, -np.inf, np.array([1.0, np.nan])])
        self.assertEqual(out, [None, None, None, [1.0, None]])
        json.dumps(out, allow_nan=False)

    def test_anything_else_is_its_repr(self) -> None:
        class Thing:
            def __repr__(self) -> str:
                return "<a thing>"

        self.assertEqual(to_json_safe({"x": Thing()}), {"x": "<a thing>"})

    def test_a_broken_repr_still_gives_text(self) -> None:
        class Broken:
            def __repr__(self) -> str:
                raise RuntimeError("no")

        self.assertIn("repr failed", to_json_safe(Broken()))

    def test_self_reference_ends(self) -> None:
        loop: List[Any] = []
        loop.append(loop)
        json.dumps(to_json_safe(loop))

    def test_sets_and_paths(self) -> None:
        self.assertEqual(to_json_safe({3, 1, 2}), [1, 2, 3])
        self.assertEqual(to_json_safe(Path("a/b.png")), "a/b.png")


class CappedStreamTest(unittest.TestCase):
    def test_keeps_up_to_the_limit_then_raises(self) -> None:
        stream = CappedStream(10)
        stream.write("12345")
        with self.assertRaises(OutputTooLarge):
            stream.write("678901234")
        self.assertEqual(stream.getvalue(), "1234567890")
        with self.assertRaises(OutputTooLarge):
            stream.write("x")


class CallFunctionTest(unittest.TestCase):
    def setUp(self) -> None:
        self.cwd = os.getcwd()
        self.dir = tempfile.TemporaryDirectory()
        os.chdir(self.dir.name)
        function_call._left_behind.clear()

    def tearDown(self) -> None:
        os.chdir(self.cwd)
        self.dir.cleanup()

    def test_reports_saved_images_and_clears_them_at_the_next_call(self) -> None:
        Path("coins.png").write_bytes(b"in")
        out = self.call("def f(p):\n    open('overlay.png', 'wb').write(b'x')\n    open('notes.txt', 'w').write('n')\n    return 1\n")
        self.assertEqual(out["saved"], ["overlay.png"])
        Path("coins.png").write_bytes(b"next input, same name")
        self.call("import os\ndef f(p):\n    return sorted(os.listdir('.'))\n")
        self.assertEqual(sorted(os.listdir(".")), ["coins.png"])

    def call(self, code: str, name: str = "f", cap: int = 1000) -> Dict[str, Any]:
        published: List[Any] = []
        with mock.patch.object(function_call, "_publish", published.append):
            outcome = call_function(code, name, "coins.png", cap)
        self.assertEqual(published, [outcome])
        json.dumps(outcome, allow_nan=False)
        return outcome

    def test_result_and_stdout(self) -> None:
        out = self.call("import numpy as np\ndef f(p):\n    print('path', p)\n    return np.int64(3)\n")
        self.assertEqual(out["result"], 3)
        self.assertEqual(out["stdout"], "path coins.png\n")
        self.assertIsNone(out["error"])

    def test_missing_function(self) -> None:
        out = self.call("def g(p):\n    return 1\n")
        self.assertEqual(out["error"]["kind"], "bad_function")

    def test_raising_function(self) -> None:
        out = self.call("def f(p):\n    raise ValueError('no coins')\n")
        self.assertEqual(out["error"]["kind"], "raised")
        self.assertIn("ValueError: no coins", out["error"]["message"])

    def test_sys_exit_fails_the_call_only(self) -> None:
        out = self.call("import sys\ndef f(p):\n    sys.exit(3)\n")
        self.assertEqual(out["error"]["kind"], "raised")

    def test_huge_print_stops_the_function(self) -> None:
        out = self.call("def f(p):\n    while True:\n        print('x' * 1000)\n", cap=5000)
        self.assertEqual(out["error"]["kind"], "output_too_large")
        self.assertEqual(len(out["stdout"]), 5000)

    def test_a_huge_result_fails_instead_of_crossing_the_socket(self) -> None:
        published: List[Any] = []
        with mock.patch.object(function_call, "_publish", published.append):
            out = call_function("import numpy as np\ndef f(p):\n    return np.zeros((300, 300))\n", "f", "x.png", 1000, 10_000)
        self.assertEqual(out["error"]["kind"], "output_too_large")
        self.assertIsNone(out["result"])
        self.assertIn("over the limit of 10000", out["error"]["message"])

    def test_non_serialisable_result_is_repr(self) -> None:
        out = self.call("class C:\n    def __repr__(self):\n        return 'C()'\ndef f(p):\n    return {'c': C()}\n")
        self.assertEqual(out["result"], {"c": "C()"})
        self.assertIsNone(out["error"])

    def test_publishes_under_the_result_mime(self) -> None:
        shown: List[Any] = []
        with mock.patch("IPython.display.display", lambda *a, **k: shown.append((a, k))):
            call_function("def f(p):\n    return 1\n", "f", "x.png", 100)
        bundle = shown[0][0][0]
        self.assertEqual(bundle[RESULT_MIME]["result"], 1)


if __name__ == "__main__":
    unittest.main()


class CallChunkTest(unittest.TestCase):
    """call_chunk: several items in one cell, each outcome published as it ends."""

    def setUp(self) -> None:
        self.cwd = os.getcwd()
        self.dir = tempfile.TemporaryDirectory()
        os.chdir(self.dir.name)
        function_call._left_behind.clear()

    def tearDown(self) -> None:
        os.chdir(self.cwd)
        self.dir.cleanup()

    def chunk(self, code: str, inputs: List[bytes], names: List[str], cap: int = 1000) -> List[Dict[str, Any]]:
        items = []
        for i, (data, name) in enumerate(zip(inputs, names)):
            Path(f"{function_call.INPUT_PREFIX}{i}").write_bytes(data)
            items.append([f"{function_call.INPUT_PREFIX}{i}", name])
        published: List[Any] = []
        with mock.patch.object(function_call, "_publish", published.append):
            function_call.call_chunk(code, "f", items, cap)
        for outcome in published:
            json.dumps(outcome, allow_nan=False)
        return published

    def test_each_item_sees_its_own_input_under_its_name_even_when_names_repeat(self) -> None:
        code = "import os\ndef f(p):\n    return [p, open(p, 'rb').read().decode(), sorted(n for n in os.listdir('.') if not n.startswith('.'))]\n"
        out = self.chunk(code, [b"one", b"two", b"three"], ["a.png", "a.png", "b.png"])
        self.assertEqual([o["index"] for o in out], [0, 1, 2])
        self.assertEqual([o["result"] for o in out], [["a.png", "one", ["a.png"]], ["a.png", "two", ["a.png"]], ["b.png", "three", ["b.png"]]])

    def test_a_function_that_moves_elsewhere_is_brought_back_before_the_next_item(self) -> None:
        scratch = os.path.join(self.dir.name, "scratch")
        code = f"import os\ndef f(p):\n    data = open(p, 'rb').read().decode()\n    os.makedirs({scratch!r}, exist_ok=True)\n    os.chdir({scratch!r})\n    return data\n"
        out = self.chunk(code, [b"one", b"two"], ["a.png", "b.png"])
        self.assertEqual([o["result"] for o in out], ["one", "two"])
        self.assertEqual(os.path.realpath(os.getcwd()), os.path.realpath(self.dir.name))

    def test_saved_images_are_kept_apart_per_item_and_not_seen_by_the_next(self) -> None:
        code = "import os\ndef f(p):\n    seen = sorted(n for n in os.listdir('.') if not n.startswith('.'))\n    open('overlay.png', 'wb').write(p.encode())\n    return seen\n"
        out = self.chunk(code, [b"1", b"2"], ["x.png", "y.png"])
        self.assertEqual(out[0]["saved"], [".argus-saved/0-overlay.png"])
        self.assertEqual(out[1]["saved"], [".argus-saved/1-overlay.png"])
        self.assertEqual(out[1]["result"], ["y.png"])  # neither x.png nor the first overlay
        self.assertEqual(Path(".argus-saved/0-overlay.png").read_bytes(), b"x.png")
        # The next chunk starts clean: the earlier chunk's saved images are gone.
        self.chunk("def f(p):\n    return 1\n", [b"3"], ["z.png"])
        self.assertFalse(Path(".argus-saved/0-overlay.png").exists())

    def test_an_overflowing_item_fails_alone_and_ends_the_chunk(self) -> None:
        code = "def f(p):\n    if p == 'loud.png':\n        while True:\n            print('x' * 1000)\n    return p\n"
        out = self.chunk(code, [b"", b"", b""], ["a.png", "loud.png", "c.png"], cap=5000)
        self.assertEqual([o["index"] for o in out], [0, 1])
        self.assertEqual(out[0]["result"], "a.png")
        self.assertEqual(out[1]["error"]["kind"], "output_too_large")

    def test_an_item_whose_input_is_missing_fails_as_bad_input_and_the_rest_run(self) -> None:
        Path(f"{function_call.INPUT_PREFIX}1").write_bytes(b"b")
        published: List[Any] = []
        with mock.patch.object(function_call, "_publish", published.append):
            function_call.call_chunk("def f(p):\n    return p\n", "f", [[f"{function_call.INPUT_PREFIX}0", "a.png"], [f"{function_call.INPUT_PREFIX}1", "b.png"]], 100)
        self.assertEqual(published[0]["error"]["kind"], "bad_input")
        self.assertEqual(published[1]["result"], "b.png")

    def test_a_syntax_error_fails_each_item_as_raised(self) -> None:
        out = self.chunk("def f(p)\n    return 1\n", [b"", b""], ["a.png", "b.png"])
        self.assertEqual([o["error"]["kind"] for o in out], ["raised", "raised"])
        self.assertIn("SyntaxError", out[0]["error"]["message"])

    def test_stale_inputs_of_an_interrupted_chunk_are_removed(self) -> None:
        Path(f"{function_call.INPUT_PREFIX}7").write_bytes(b"old")
        self.chunk("def f(p):\n    return 1\n", [b""], ["a.png"])
        self.assertFalse(Path(f"{function_call.INPUT_PREFIX}7").exists())
