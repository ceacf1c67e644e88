"""The neural tools' kernel side: the HTTP client's wire format and configuration, the answers'
errors, masks, the method switch, and the catalogue finding the new tools. Calls against a real
Argus server (the same JSON three ways) are in tests/vision-tools.test.ts."""

from __future__ import annotations

import base64
import email.parser
import email.policy
import io
import json
import os
import socket
import unittest
from unittest import mock

import numpy as np
from PIL import Image

from argus import detect_faces, detect_objects, detect_people, read_text
from argus.tools import TOOLS, search_tools
from argus.tools import _remote, neural
from argus.tools.neural import VisionToolError, decode_mask

from .support import WorkspaceTestCase, astronaut


def _closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class MultipartTest(unittest.TestCase):
    def test_a_standard_parser_reads_the_fields_and_the_file_back(self) -> None:
        png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
        body, content_type = _remote.multipart_body({"params": '{"labels": ["car"]}'}, {"image": ("image.png", "image/png", png)})
        message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
            f"Content-Type: {content_type}\r\n\r\n".encode() + body
        )
        parts = {part.get_param("name", header="content-disposition"): part for part in message.iter_parts()}
        self.assertEqual(json.loads(parts["params"].get_content()), {"labels": ["car"]})
        self.assertEqual(parts["image"].get_filename(), "image.png")
        self.assertEqual(parts["image"].get_content_type(), "image/png")
        self.assertEqual(parts["image"].get_payload(decode=True), png)


class SettingsTest(unittest.TestCase):
    def test_without_argus_url_the_error_says_what_to_set(self) -> None:
        with mock.patch.dict(os.environ, {}, clear=True):
            with self.assertRaisesRegex(_remote.RemoteNotConfigured, "ARGUS_URL.*ARGUS_TOKEN"):
                _remote.settings()

    def test_a_url_without_a_token_or_of_another_scheme_is_refused(self) -> None:
        with mock.patch.dict(os.environ, {"ARGUS_URL": "http://localhost:3000"}, clear=True):
            with self.assertRaisesRegex(_remote.RemoteNotConfigured, "ARGUS_TOKEN is empty"):
                _remote.settings()
        with mock.patch.dict(os.environ, {"ARGUS_URL": "file:///etc", "ARGUS_TOKEN": "t"}, clear=True):
            with self.assertRaisesRegex(_remote.RemoteNotConfigured, "http"):
                _remote.settings()

    def test_trailing_slashes_and_the_session_are_read(self) -> None:
        env = {"ARGUS_URL": "http://h:1/ ", "ARGUS_TOKEN": "tok", "ARGUS_SESSION": "s1"}
        with mock.patch.dict(os.environ, env, clear=True):
            self.assertEqual(_remote.settings(), ("http://h:1", "tok", "s1"))


class CallToolTest(WorkspaceTestCase):
    def test_outside_argus_without_a_url_a_tool_says_how_to_reach_the_server(self) -> None:
        with mock.patch.dict(os.environ, {}, clear=True):
            with self.assertRaisesRegex(_remote.RemoteNotConfigured, "ARGUS_URL"):
                detect_objects(astronaut())

    def test_an_unreachable_server_is_a_connection_error_naming_it(self) -> None:
        url = f"http://127.0.0.1:{_closed_port()}"
        with mock.patch.dict(os.environ, {"ARGUS_URL": url, "ARGUS_TOKEN": "t"}, clear=True):
            with self.assertRaisesRegex(ConnectionError, "127.0.0.1"):
                detect_objects(astronaut(), labels=["person"])

    def test_arguments_are_checked_before_anything_is_sent(self) -> None:
        with self.assertRaisesRegex(ValueError, "box_threshold"):
            detect_objects(astronaut(), box_threshold=2)
        with self.assertRaisesRegex(TypeError, r"labels\[0\]"):
            detect_objects(astronaut(), labels=[3])
        with self.assertRaisesRegex(ValueError, "method must be 'auto', 'neural' or 'classical'"):
            detect_faces(astronaut(), method="deep")
        with self.assertRaisesRegex(ValueError, "method"):
            detect_people(astronaut(), method=None)
        with self.assertRaisesRegex(ValueError, "method"):
            read_text(astronaut(), method="tesseract")

    def test_auto_without_a_server_runs_the_classical_tool(self) -> None:
        with mock.patch.dict(os.environ, {}, clear=True):
            faces = detect_faces(astronaut())
        self.assertEqual(len(faces), 1)


class AnswerTest(unittest.TestCase):
    def test_what_the_caller_can_fix_is_a_value_error_with_the_servers_words(self) -> None:
        body = {"error": {"code": "bad_request:tool", "message": "labels: unknown class 'carr'", "field": "params.labels"}}
        for status in (400, 404, 413, 415):
            error = neural._failure("detect_objects", _remote.Answer(status, body, None))
            self.assertIsInstance(error, ValueError)
            self.assertEqual(str(error), "detect_objects: labels: unknown class 'carr'")

    def test_the_rest_is_a_vision_tool_error_with_status_code_and_field(self) -> None:
        body = {"error": {"code": "unavailable:tool", "message": "models missing"}}
        error = neural._failure("detect_poses", _remote.Answer(503, body, None))
        self.assertIsInstance(error, VisionToolError)
        self.assertEqual((error.status, error.code), (503, "unavailable:tool"))
        odd = neural._failure("detect_poses", _remote.Answer(502, "<html>", None))
        self.assertIn("502", str(odd))


class MaskTest(unittest.TestCase):
    def test_a_segment_people_mask_decodes_to_a_bool_array(self) -> None:
        mask = np.zeros((6, 8), dtype=np.uint8)
        mask[2:4, 3:7] = 255
        buffer = io.BytesIO()
        Image.fromarray(mask, mode="L").save(buffer, format="PNG")
        encoded = base64.b64encode(buffer.getvalue()).decode()
        for value in (encoded, f"data:image/png;base64,{encoded}"):
            decoded = decode_mask({"mask": value, "width": 8, "height": 6, "coverage": 0.17})
            self.assertEqual(decoded.dtype, np.bool_)
            self.assertEqual(int(decoded.sum()), 8)
            self.assertTrue(decoded[2, 3] and not decoded[0, 0])
        with self.assertRaisesRegex(TypeError, "mask"):
            decode_mask([])


class CatalogueTest(unittest.TestCase):
    def test_the_neural_tools_are_catalogued_with_when_to_use(self) -> None:
        for name in ("detect_objects", "detect_poses", "segment_people"):
            self.assertIn(name, TOOLS)
            self.assertIn("When to use:", TOOLS[name].doc)
        self.assertIn("method='auto'", TOOLS["detect_people"].signature)

    def test_search_finds_them_for_everyday_tasks(self) -> None:
        self.assertEqual(search_tools("count the cars in the street", 1), ["detect_objects"])
        self.assertEqual(search_tools("how many dogs are there", 1), ["detect_objects"])
        self.assertEqual(search_tools("is anyone raising their arm", 1), ["detect_poses"])
        self.assertEqual(search_tools("remove the background behind the person", 1), ["segment_people"])
        self.assertEqual(search_tools("count the coins", 1), ["detect_circles"])


if __name__ == "__main__":
    unittest.main()
