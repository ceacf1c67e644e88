"""End to end in a real ipykernel: the display payload of view_image and the
stdin bridge, as the Argus server will see them on the wire.

Skipped when jupyter_client/ipykernel are missing. One kernel for the class
(~1.5 s to start).
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import tempfile
import time
import unittest
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional
from unittest import mock

try:
    from jupyter_client.manager import KernelManager

    import ipykernel  # noqa: F401  (the kernel the manager will launch)
except ImportError:  # pragma: no cover - present wherever Argus runs kernels
    KernelManager = None

from argus.bridge import PREFIX
from tests.test_package import PUBLIC

PYTHON_DIR = Path(__file__).resolve().parents[1]
CELL_TIMEOUT = 20.0


@unittest.skipIf(KernelManager is None, "jupyter_client/ipykernel not installed")
class RealKernelTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.workspace = tempfile.TemporaryDirectory(prefix="argus-kernel-test-")
        env = dict(os.environ, PYTHONPATH=str(PYTHON_DIR), PYDEVD_DISABLE_FILE_VALIDATION="1")
        cls.manager = KernelManager(kernel_name="python3")
        # Finding the kernelspec imports ipykernel's debugger (pydevd) into THIS
        # process, which warns about frozen modules on stderr unless told not to.
        with mock.patch.dict(os.environ, {"PYDEVD_DISABLE_FILE_VALIDATION": "1"}):
            cls.manager.start_kernel(
                env=env, cwd=cls.workspace.name, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
        cls.client = cls.manager.blocking_client()
        cls.client.start_channels()
        cls.client.wait_for_ready(timeout=30)
        # As the server does at kernel start; the names it adds are recorded
        # before any test cell defines others.
        outputs = cls.run_cell(
            "_before = set(dir())\n"
            "from argus import *\n"
            "print(sorted(set(dir()) - _before - {'_before'}))"
        )
        assert not cls.errors(outputs), cls.errors(outputs)
        cls.star_names = cls.stdout(outputs).strip()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.client.stop_channels()
        cls.manager.shutdown_kernel(now=True)
        cls.workspace.cleanup()

    @classmethod
    def run_cell(
        cls, code: str, allow_stdin: bool = False, answer: Optional[Callable[[str], str]] = None
    ) -> List[Dict[str, Any]]:
        """Execute `code`; answer stdin requests with `answer(prompt)`; return the
        cell's iopub messages (display_data, stream, error, ...)."""
        message_id = cls.client.execute(code, allow_stdin=allow_stdin, stop_on_error=False)
        outputs: List[Dict[str, Any]] = []
        deadline = time.monotonic() + CELL_TIMEOUT
        while time.monotonic() < deadline:
            if allow_stdin:
                try:
                    request = cls.client.get_stdin_msg(timeout=0.01)
                    cls.client.input(answer(request["content"]["prompt"]))
                except queue.Empty:
                    pass
            try:
                message = cls.client.get_iopub_msg(timeout=0.01)
            except queue.Empty:
                continue
            if message["parent_header"].get("msg_id") != message_id:
                continue
            if message["msg_type"] == "status" and message["content"]["execution_state"] == "idle":
                return outputs
            outputs.append(message)
        raise AssertionError(f"cell did not finish within {CELL_TIMEOUT}s: {code!r}")

    @staticmethod
    def errors(outputs: List[Dict[str, Any]]) -> List[str]:
        return [f"{m['content']['ename']}: {m['content']['evalue']}" for m in outputs if m["msg_type"] == "error"]

    @staticmethod
    def stdout(outputs: List[Dict[str, Any]]) -> str:
        return "".join(
            m["content"]["text"] for m in outputs if m["msg_type"] == "stream" and m["content"]["name"] == "stdout"
        )

    def test_star_import_gives_exactly_the_public_api(self) -> None:
        expected = sorted(PUBLIC)
        self.assertEqual(self.star_names, str(expected))

    def test_view_image_publishes_marked_display_data(self) -> None:
        outputs = self.run_cell(
            "import numpy as np\n"
            "view_image(np.zeros((30, 40), np.uint8), title='blank')\n"
        )
        self.assertEqual(self.errors(outputs), [])
        displays = [m for m in outputs if m["msg_type"] == "display_data"]
        self.assertEqual(len(displays), 1)
        content = displays[0]["content"]
        self.assertEqual(content["metadata"], {"argus": {"view": True, "title": "blank", "width": 40, "height": 30}})
        self.assertEqual(content["data"]["text/plain"], "<argus image: 40x30 blank>")
        self.assertTrue(content["data"]["image/png"].startswith("iVBORw0KGgo"))  # base64 of the PNG signature

    def test_view_image_of_a_matplotlib_figure_with_the_inline_backend(self) -> None:
        outputs = self.run_cell(
            "import matplotlib.pyplot as plt\n"
            "fig, ax = plt.subplots(figsize=(4, 3), dpi=50)\n"
            "ax.plot([0, 1], [1, 0])\n"
            "view_image(ax, title='plot')\n"
        )
        self.assertEqual(self.errors(outputs), [])
        displays = [m["content"] for m in outputs if m["msg_type"] == "display_data"]
        marked = [d for d in displays if d["metadata"].get("argus", {}).get("view")]
        self.assertEqual(len(marked), 1)
        self.assertEqual(marked[0]["data"]["text/plain"], "<argus image: 200x150 plot>")
        # The inline backend may also show the open figure at the end of the
        # cell; that display is unmarked, so the server does not send it to the model.
        self.assertTrue(all("argus" not in d["metadata"] for d in displays if d not in marked))

    def test_bridge_round_trip_over_stdin(self) -> None:
        prompts: List[str] = []

        def server(prompt: str) -> str:
            prompts.append(prompt)
            request = json.loads(prompt[len(PREFIX) :])
            if request["method"] == "ping":
                return json.dumps({"id": request["id"], "result": request["params"]["text"]})
            # A method that reads an image reference from the workspace, as vqa will.
            picture = Path(self.workspace.name, request["params"]["image"])
            return json.dumps({"id": request["id"], "result": {"bytes": picture.stat().st_size}})

        outputs = self.run_cell(
            "from argus.bridge import call, image_ref\n"
            "import numpy as np\n"
            "print(ping('hello from the kernel'))\n"
            "print(call('describe', {'image': image_ref(np.zeros((8, 8, 3), np.uint8))})['bytes'] > 0)\n",
            allow_stdin=True,
            answer=server,
        )
        self.assertEqual(self.errors(outputs), [])
        self.assertEqual(self.stdout(outputs), "hello from the kernel\nTrue\n")
        self.assertEqual(len(prompts), 2)
        self.assertTrue(all(prompt.startswith(PREFIX) for prompt in prompts))

    def test_bridge_error_reply_and_stdin_refused(self) -> None:
        def failing(prompt: str) -> str:
            request = json.loads(prompt[len(PREFIX) :])
            return json.dumps({"id": request["id"], "error": {"message": "no model configured"}})

        outputs = self.run_cell("ping('x')", allow_stdin=True, answer=failing)
        self.assertEqual(self.errors(outputs), ["BridgeError: no model configured"])

        outputs = self.run_cell("ping('x')", allow_stdin=False)
        [error] = self.errors(outputs)
        self.assertTrue(error.startswith("BridgeError: The Argus bridge is not available: "), error)
