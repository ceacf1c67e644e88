"""The stdin bridge: prompt format, replies, errors and image references."""

from __future__ import annotations

import builtins
import json
import re
from pathlib import Path
from typing import Any, Callable, List, Optional
from unittest import mock

import numpy as np
from IPython.core.error import StdinNotImplementedError
from PIL import Image

from argus import bridge, ping
from argus.bridge import PREFIX, BridgeError, call, image_ref

from .support import WorkspaceTestCase, chelsea


class FakeServer:
    """Replaces builtins.input: records prompts and answers like the Argus server."""

    def __init__(self, answer: Optional[Callable[[dict], Any]] = None) -> None:
        self.prompts: List[str] = []
        self.answer = answer or (lambda request: {"id": request["id"], "result": request["params"].get("text")})

    def __call__(self, prompt: str = "") -> str:
        self.prompts.append(prompt)
        request = json.loads(prompt[len(PREFIX) :])
        reply = self.answer(request)
        return reply if isinstance(reply, str) else json.dumps(reply)


class BridgeCallTest(WorkspaceTestCase):
    def serve(self, server: Any) -> None:
        patch = mock.patch.object(builtins, "input", server)
        patch.start()
        self.addCleanup(patch.stop)

    def test_prefix_constant(self) -> None:
        self.assertEqual(PREFIX, "\x1eargus-bridge:")

    def test_ping_round_trip_and_prompt_format(self) -> None:
        server = FakeServer()
        self.serve(server)
        self.assertEqual(ping("hello, Argus"), "hello, Argus")
        self.assertEqual(len(server.prompts), 1)
        prompt = server.prompts[0]
        self.assertTrue(prompt.startswith(PREFIX))
        self.assertNotIn("\n", prompt)  # one line, whatever the params hold
        request = json.loads(prompt[len(PREFIX) :])
        self.assertEqual(set(request), {"id", "method", "params"})
        self.assertRegex(request["id"], re.compile(r"^[0-9a-f]{32}$"))
        self.assertEqual(request["method"], "ping")
        self.assertEqual(request["params"], {"text": "hello, Argus"})

    def test_each_call_has_a_new_id(self) -> None:
        server = FakeServer()
        self.serve(server)
        ping("a")
        ping("b")
        ids = {json.loads(prompt[len(PREFIX) :])["id"] for prompt in server.prompts}
        self.assertEqual(len(ids), 2)

    def test_call_returns_any_json_result(self) -> None:
        self.serve(FakeServer(lambda request: {"id": request["id"], "result": {"answer": [1, 2.5, None]}}))
        self.assertEqual(call("vqa", {"prompt": "how many?", "images": []}), {"answer": [1, 2.5, None]})

    def test_the_server_can_read_handed_over_files_before_it_replies(self) -> None:
        # Transport `kernel`: the server asks for the file in chunks over the same channel, then answers.
        (self.workspace / "pic.png").write_bytes(b"0123456789")
        asked: List[dict] = []

        def answer(request: dict) -> Any:
            if "transfer_answer" in request:
                asked.append(request["transfer_answer"])
                if len(asked) == 1:
                    return {"id": request["id"], "transfer": {"op": "read", "args": {"path": "pic.png", "offset": 2, "length": 3}}}
                if len(asked) == 2:
                    return {"id": request["id"], "transfer": {"op": "commit", "args": {}}}
                return {"id": request["id"], "result": "seen"}
            return {"id": request["id"], "transfer": {"op": "stat", "args": {"path": "pic.png", "max_bytes": 100}}}

        self.serve(FakeServer(answer))
        self.assertEqual(call("vqa", {"images": ["pic.png"]}), "seen")
        self.assertEqual(asked[0]["result"]["size"], 10)
        self.assertEqual(asked[1], {"result": {"data": "MjM0"}})
        # Only reads: a write asked for in the middle of a call is refused.
        self.assertIn("not available here", asked[2]["error"])

    def test_error_reply_raises_with_the_server_message(self) -> None:
        self.serve(FakeServer(lambda request: {"id": request["id"], "error": {"message": "model quota exceeded"}}))
        with self.assertRaises(BridgeError) as caught:
            call("vqa", {})
        self.assertEqual(str(caught.exception), "model quota exceeded")

    def test_malformed_replies(self) -> None:
        cases = [
            (lambda request: "definitely not json", "non-JSON"),
            (lambda request: "[1, 2]", "JSON object"),
            (lambda request: {"id": "someone-else", "result": 1}, "someone-else"),
            (lambda request: {"id": request["id"]}, "neither"),
        ]
        for answer, fragment in cases:
            self.serve(FakeServer(answer))
            with self.assertRaises(BridgeError) as caught:
                call("ping", {"text": "x"})
            self.assertIn(fragment, str(caught.exception))

    def test_stdin_not_allowed_is_a_readable_bridge_error(self) -> None:
        def refuse(prompt: str = "") -> str:
            raise StdinNotImplementedError("raw_input was called, but this frontend does not support input requests.")

        self.serve(refuse)
        with self.assertRaises(BridgeError) as caught:
            ping("x")
        self.assertTrue(str(caught.exception).startswith("The Argus bridge is not available: "))

    def test_eof_is_a_readable_bridge_error(self) -> None:
        def closed(prompt: str = "") -> str:
            raise EOFError

        self.serve(closed)
        with self.assertRaises(BridgeError) as caught:
            call("ping", {"text": "x"})
        self.assertTrue(str(caught.exception).startswith("The Argus bridge is not available: "))
        self.assertIn("stdin", str(caught.exception))

    def test_bad_arguments_are_named_before_anything_is_sent(self) -> None:
        server = FakeServer()
        self.serve(server)
        with self.assertRaises(TypeError) as caught:
            call("vqa", {"image": np.zeros((2, 2))})
        self.assertIn("image_ref", str(caught.exception))
        with self.assertRaises(ValueError) as caught:
            call("", {})
        self.assertIn("method", str(caught.exception))
        with self.assertRaises(TypeError) as caught:
            call("ping", ["text"])
        self.assertIn("params", str(caught.exception))
        with self.assertRaises(TypeError) as caught:
            ping(5)
        self.assertIn("ping: text", str(caught.exception))
        with self.assertRaises(TypeError):
            call("ping", {"value": float("nan")})
        self.assertEqual(server.prompts, [])

    def test_ping_rejects_a_non_string_answer(self) -> None:
        self.serve(FakeServer(lambda request: {"id": request["id"], "result": 42}))
        with self.assertRaises(BridgeError):
            ping("x")


class ImageRefTest(WorkspaceTestCase):
    def test_writes_a_png_under_argus_bridge(self) -> None:
        reference = image_ref(chelsea())
        self.assertRegex(reference, r"^\.argus/bridge/[0-9a-f]{32}\.png$")
        written = self.workspace / reference
        self.assertTrue(written.is_file())
        with Image.open(written) as picture:
            self.assertEqual(picture.format, "PNG")
            np.testing.assert_array_equal(np.asarray(picture.convert("RGB")), chelsea())
        self.assertEqual(list(Path(".argus/bridge").glob("*.part")), [])

    def test_unique_paths_and_max_edge(self) -> None:
        first, second = image_ref(chelsea()), image_ref(chelsea(), max_edge=90)
        self.assertNotEqual(first, second)
        with Image.open(second) as picture:
            self.assertEqual(picture.size, (90, 60))

    def test_bad_image_is_named(self) -> None:
        with self.assertRaises(TypeError) as caught:
            image_ref(3.5)
        self.assertIn("image_ref: image", str(caught.exception))

    def test_module_exports(self) -> None:
        for name in ("call", "ping", "image_ref", "BridgeError", "PREFIX"):
            self.assertTrue(hasattr(bridge, name), name)
