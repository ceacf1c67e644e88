"""Workspace transfer through the kernel: checksummed chunked writes, capped reads, no links followed."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import io
import json
import os
from pathlib import Path
from typing import Any, Dict

from argus import workspace_transfer as transfer

from .support import WorkspaceTestCase


def call(op: str, **args: Any) -> Dict[str, Any]:
    """What the server reads back: the one marked line run() prints."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        transfer.run(op, json.dumps(args))
    (line,) = [l for l in out.getvalue().split("\n") if l.startswith(transfer.MARKER)]
    return json.loads(line[len(transfer.MARKER):])


def push(name: str, data: bytes, chunk: int = 7, sha: "str | None" = None, size: "int | None" = None) -> Dict[str, Any]:
    assert call("begin", token="t1") == {"result": {"size": 0}}
    for i in range(0, len(data), chunk):
        answer = call("append", token="t1", data=base64.b64encode(data[i : i + chunk]).decode(), max_bytes=len(data))
        assert "result" in answer, answer
    return call("commit", token="t1", name=name, sha256=sha or hashlib.sha256(data).hexdigest(), size=len(data) if size is None else size)


class WriteTest(WorkspaceTestCase):
    def test_chunks_are_renamed_into_place_once_the_checksum_matches(self) -> None:
        data = os.urandom(100)
        self.assertEqual(push("photo.png", data), {"result": {"name": "photo.png", "size": 100}})
        self.assertEqual((self.workspace / "photo.png").read_bytes(), data)
        self.assertEqual(list((self.workspace / ".argus" / "incoming").iterdir()), [])
        sha = hashlib.sha256(data).hexdigest()
        self.assertEqual(call("missing", files={"photo.png": sha, "other.jpg": "ab"}), {"result": {"missing": ["other.jpg"]}})

    def test_a_checksum_mismatch_is_refused_and_nothing_lands(self) -> None:
        answer = push("photo.png", b"real bytes", sha="0" * 64)
        self.assertIn("checksum mismatch", answer["error"])
        self.assertFalse((self.workspace / "photo.png").exists())
        self.assertEqual(list((self.workspace / ".argus" / "incoming").iterdir()), [])

    def test_more_bytes_than_announced_are_refused(self) -> None:
        call("begin", token="t2")
        answer = call("append", token="t2", data=base64.b64encode(b"x" * 10).decode(), max_bytes=4)
        self.assertIn("larger than the 4 bytes", answer["error"])
        self.assertFalse((self.workspace / ".argus" / "incoming" / "t2.part").exists())

    def test_names_and_tokens_that_could_escape_are_refused(self) -> None:
        self.assertIn("error", call("begin", token="../x"))
        call("begin", token="t3")
        answer = call("commit", token="t3", name="../escape.png", sha256=hashlib.sha256(b"").hexdigest(), size=0)
        self.assertIn("not a plain file name", answer["error"])


class ReadTest(WorkspaceTestCase):
    def test_stat_then_chunks_give_back_the_file(self) -> None:
        data = os.urandom(50)
        (self.workspace / "sub").mkdir()
        (self.workspace / "sub" / "out.png").write_bytes(data)
        info = call("stat", path="sub/out.png", max_bytes=1000)["result"]
        self.assertEqual(info, {"size": 50, "sha256": hashlib.sha256(data).hexdigest()})
        chunks = [base64.b64decode(call("read", path="sub/out.png", offset=o, length=20)["result"]["data"]) for o in (0, 20, 40)]
        self.assertEqual(b"".join(chunks), data)

    def test_oversize_files_are_refused_before_reading(self) -> None:
        (self.workspace / "big.bin").write_bytes(b"x" * 100)
        self.assertIn("over the 10 bytes allowed", call("stat", path="big.bin", max_bytes=10)["error"])

    def test_links_and_escapes_are_not_followed(self) -> None:
        outside = Path(self._tmp.name).parent / f"argus-outside-{os.getpid()}.txt"
        outside.write_text("secret")
        self.addCleanup(outside.unlink)
        os.symlink(outside, self.workspace / "link.txt")
        os.mkdir(self.workspace / "real")
        os.symlink(self.workspace / "real", self.workspace / "dirlink")
        (self.workspace / "real" / "f").write_text("x")
        self.assertIn("without following a link", call("stat", path="link.txt", max_bytes=100)["error"])
        self.assertIn("without following a link", call("read", path="dirlink/f", offset=0, length=1)["error"])
        self.assertIn("not a workspace-relative path", call("read", path="../x", offset=0, length=1)["error"])
        self.assertIn("not a workspace-relative path", call("stat", path=str(outside), max_bytes=100)["error"])
        self.assertIn("not a regular file", call("stat", path="real", max_bytes=100)["error"])


class WorkspaceTest(WorkspaceTestCase):
    def test_enter_usage_and_discard(self) -> None:
        os.environ["ARGUS_WORKSPACES_DIR"] = str(self.workspace / "spaces")
        self.addCleanup(os.environ.pop, "ARGUS_WORKSPACES_DIR")
        transfer._base = None
        self.addCleanup(setattr, transfer, "_base", None)
        entered = call("enter", session="abc-123")["result"]["workspace"]
        self.assertEqual(Path.cwd(), Path(entered))
        Path("a.bin").write_bytes(b"x" * 5000)
        used = call("usage", max_entries=10)["result"]
        self.assertEqual((used["entries"], used["partial"]), (1, False))
        self.assertGreaterEqual(used["bytes"], 4096)
        self.assertIn("error", call("enter", session="../up"))
        self.assertEqual(call("discard"), {"result": {"removed": True}})
        self.assertFalse(Path(entered).exists())
