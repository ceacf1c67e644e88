"""Big pictures leave the kernel as files in the workspace, not as one huge message.

A 5 MP picture is ~15 MB of PNG, 20 MB of base64 in one display message that
jupyter-server's single event loop relays and the Argus server parses while
every other session's cells wait behind it. So each PNG or JPEG above
PICTURE_REF_BYTES (encoded) that a cell displays (display(), view_image, a
matplotlib figure, a PIL image as the cell's value) is written to the
workspace's PICTURE_DIR under a fresh name, and the display message carries a
small reference instead (mimetype FILE_REF_MIME):

    {"files": [{"mime": "image/png", "path": ".argus-pictures/<hex>.png",
                "size": <bytes>, "sha256": "<hex>"}]}

The server reads the file as untrusted input (it never follows a link, checks
the size and hash, see lib/engines/kernels/picture-refs.ts), puts the picture back in
the output as if it had travelled inline, and deletes the file. Anything that
goes wrong here (disk full, a read-only workspace) leaves the picture inline:
slower, never lost.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
import secrets
from typing import Any, Callable, Dict, Optional

FILE_REF_MIME = "application/vnd.argus.file-ref+json"
# Relative to the workspace; hidden, so listings of the person's files skip it.
PICTURE_DIR = ".argus-pictures"
# Base64 characters above which a picture goes by file (256 KB: a screenshot
# stays inline, a photo-sized picture does not).
PICTURE_REF_BYTES = 256 * 1024
PICTURE_MIMES = {"image/png": ".png", "image/jpeg": ".jpg"}


def _encoded_length(value: Any) -> int:
    if isinstance(value, (bytes, bytearray)):
        return 4 * ((len(value) + 2) // 3)
    if isinstance(value, str):
        return len(value)
    return 0


def _raw_bytes(value: Any) -> Optional[bytes]:
    """The picture's bytes: IPython hands over raw bytes (formatters) or base64 text (raw display)."""
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    try:
        return base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError, TypeError):
        return None


class PictureWriter:
    """Writes pictures into PICTURE_DIR of the workspace opened at install time.

    The workspace is held as a directory descriptor: a cell may chdir elsewhere,
    and outside the sandbox the directory is renamed when a session adopts the
    kernel; the descriptor follows both.
    """

    def __init__(self, workspace_fd: int, threshold: int = PICTURE_REF_BYTES) -> None:
        self.workspace_fd = workspace_fd
        self.threshold = threshold

    def _write(self, data: bytes, suffix: str) -> str:
        try:
            os.mkdir(PICTURE_DIR, 0o700, dir_fd=self.workspace_fd)
        except FileExistsError:
            pass
        directory = os.open(PICTURE_DIR, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=self.workspace_fd)
        try:
            name = secrets.token_hex(16) + suffix
            fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600, dir_fd=directory)
            with os.fdopen(fd, "wb") as out:
                out.write(data)
        finally:
            os.close(directory)
        return f"{PICTURE_DIR}/{name}"

    def transform(self, data: Dict[str, Any]) -> Dict[str, Any]:
        """The bundle with each big picture replaced by a file reference (the same bundle when none is big)."""
        if not isinstance(data, dict) or FILE_REF_MIME in data:
            return data
        big = [m for m in PICTURE_MIMES if _encoded_length(data.get(m)) > self.threshold]
        if not big:
            return data
        out = dict(data)
        files = []
        for mime in big:
            raw = _raw_bytes(data[mime])
            if raw is None:
                continue  # not base64: left as it is, the server will judge it
            try:
                path = self._write(raw, PICTURE_MIMES[mime])
            except OSError:
                continue  # stays inline
            files.append({"mime": mime, "path": path, "size": len(raw), "sha256": hashlib.sha256(raw).hexdigest()})
            del out[mime]
        if not files:
            return data
        out[FILE_REF_MIME] = {"files": files}
        return out

    def clear(self) -> None:
        """Removes pictures the server never collected (outputs it dropped); called before each cell."""
        try:
            directory = os.open(PICTURE_DIR, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=self.workspace_fd)
        except OSError:
            return
        try:
            for name in os.listdir(directory):
                try:
                    os.unlink(name, dir_fd=directory)
                except OSError:
                    pass
        finally:
            os.close(directory)


def _wrap(original: Callable[..., Any], writer: PictureWriter, position: int, keyword: str) -> Callable[..., Any]:
    """`original` with its bundle argument (at `position` or named `keyword`) passed through the writer."""

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if keyword in kwargs:
            kwargs[keyword] = writer.transform(kwargs[keyword])
        elif len(args) > position:
            args = args[:position] + (writer.transform(args[position]),) + args[position + 1 :]
        return original(*args, **kwargs)

    return wrapped


def install(shell: Any, workspace: str = ".") -> Optional[PictureWriter]:
    """Routes the shell's display messages and cell values through a PictureWriter.

    Wraps `display_pub.publish(data, ...)` (display(), view_image) and
    `displayhook.write_format_data(format_dict, ...)` (a cell's value): both
    receive the bundle before ipykernel base64-encodes and sends it.
    """
    if shell is None:
        return None
    fd = os.open(workspace, os.O_RDONLY | os.O_DIRECTORY)
    writer = PictureWriter(fd)
    shell.display_pub.publish = _wrap(shell.display_pub.publish, writer, 0, "data")
    shell.displayhook.write_format_data = _wrap(shell.displayhook.write_format_data, writer, 0, "format_dict")
    shell.events.register("pre_run_cell", lambda *_: writer.clear())
    return writer

