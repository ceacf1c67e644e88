"""Runs one stored function on files inside an isolated kernel (issue #15).

Internal module, used by the server's function runner (lib/features/functions/). The
server sends one cell that calls `call_chunk` on a chunk of files (or
`call_function` on one); each file's outcome comes back as one display output
of mime type RESULT_MIME as soon as it is known, so nothing has to be parsed
out of printed text and a batch's progress stays live. Two rules matter here:

- What the function prints is kept in a bounded buffer. Past the cap the next
  write raises OutputTooLarge inside the function, so a function printing
  100 MB stops early and nothing huge crosses the kernel's socket.
- The return value is made JSON-safe here, where numpy is at hand
  (`to_json_safe`): numpy scalars and arrays, tuples, sets, dicts and lists
  recursively; NaN and infinities become None; anything else its repr.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import time
import traceback
from typing import Any

RESULT_MIME = "application/vnd.argus.function-result+json"

# Nesting deeper than this is shown as its repr: a self-referencing list must
# not recurse forever, and no sensible result is this deep.
MAX_DEPTH = 50

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")

# What the previous call in this kernel left in the working directory (its
# input and what it wrote), removed at the start of the next call: a kernel
# reused for many images must not show one call another's files.
_left_behind: list[str] = []


class OutputTooLarge(Exception):
    """The function printed more than the run allows."""


class CappedStream(io.TextIOBase):
    """A text stream that keeps at most `limit` characters and raises past it."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit
        self.parts: list[str] = []
        self.size = 0
        self.overflowed = False

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if self.overflowed:
            raise OutputTooLarge(f"the function printed more than {self.limit} characters")
        room = self.limit - self.size
        if len(text) > room:
            self.parts.append(text[:room])
            self.size = self.limit
            self.overflowed = True
            raise OutputTooLarge(f"the function printed more than {self.limit} characters")
        self.parts.append(text)
        self.size += len(text)
        return len(text)

    def getvalue(self) -> str:
        return "".join(self.parts)


def _number(value: float) -> float | None:
    return value if math.isfinite(value) else None


def to_json_safe(value: Any, depth: int = 0) -> Any:
    """`value` as something json.dumps accepts without losing what it means."""
    if depth > MAX_DEPTH:
        return repr(value)
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return _number(value)
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - numpy is always in Argus kernels
        np = None
    if np is not None:
        if isinstance(value, np.bool_):
            return bool(value)
        if isinstance(value, np.integer):
            return int(value)
        if isinstance(value, np.floating):
            return _number(float(value))
        if isinstance(value, np.complexfloating):
            return repr(complex(value))
        if isinstance(value, np.ndarray):
            if value.dtype.kind in "biuf":
                return to_json_safe(value.tolist(), depth + 1)
            return [to_json_safe(v, depth + 1) for v in value.tolist()] if value.dtype == object else repr(value)
    if isinstance(value, dict):
        return {str(k) if not isinstance(k, str) else k: to_json_safe(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json_safe(v, depth + 1) for v in value]
    if isinstance(value, (set, frozenset)):
        items = [to_json_safe(v, depth + 1) for v in value]
        try:
            return sorted(items)
        except TypeError:
            return items
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    try:
        return repr(value)
    except Exception as error:  # a broken __repr__ must not lose the result
        return f"<{type(value).__name__} object: repr failed: {error}>"


def _publish(outcome: dict[str, Any]) -> None:
    from IPython.display import display

    display({RESULT_MIME: outcome, "text/plain": "<argus function result>"}, raw=True)


def _error(kind: str, message: str) -> dict[str, str]:
    return {"kind": kind, "message": message}


def _top_files() -> set[str]:
    """Regular files (never links) at the top of the working directory."""
    try:
        with os.scandir(".") as entries:
            return {e.name for e in entries if e.is_file(follow_symlinks=False)}
    except OSError:
        return set()


def _clear_left_behind(keep: str) -> None:
    for name in _left_behind:
        if name != keep:
            with contextlib.suppress(OSError):
                os.remove(name)
    _left_behind.clear()


def call_function(code: str, name: str, path: str, max_output_chars: int, max_result_chars: int = 10_000_000) -> dict[str, Any]:
    """Defines `code`, calls `name(path)` and publishes the outcome.

    The outcome is {result, stdout, seconds, error, saved}: `saved` names the
    images (.png, .jpg) the call wrote at the top of the working directory. The
    previous call's input and files are removed first. error is None or
    {kind, message} with kind one of: bad_function (the code does not define
    `name`), raised (the function raised), output_too_large (it printed more
    than `max_output_chars`, or its result is longer than `max_result_chars`
    as JSON: a 5000x5000 array must not cross the kernel's socket).
    """
    outcome = _run_one(_compiled(code, name), name, path, max_output_chars, max_result_chars)
    _publish(outcome)
    return outcome


# A chunk's inputs are written by the server before the call under these names
# (`.argus-input-<n>`), so items sharing a file name never collide; each is
# renamed to its item's name only when its turn comes, so a call sees its own
# input alone. Images a call saved are moved into SAVED_DIR as `<index>-<name>`
# before the next item starts, where the server reads them back (without
# following links) while the chunk goes on.
INPUT_PREFIX = ".argus-input-"
SAVED_DIR = ".argus-saved"


def call_chunk(code: str, name: str, items: list[list[str]], max_output_chars: int, max_result_chars: int = 10_000_000) -> None:
    """Calls `name` on each [staged input, name] of `items` in turn, publishing each outcome as it ends.

    One outcome per item, as call_function's plus `index` (its place in the
    chunk); `saved` names paths under SAVED_DIR. Each item has its own output
    and result caps. An item whose output overflowed ends the chunk (the
    kernel may be left half-way through something): the server runs the
    rest in a fresh kernel. A KeyboardInterrupt (the server's per-item
    timeout, or a cancel) ends the cell as interrupted.
    """
    _reset_saved_dir()
    _remove_stale_inputs(keep={staged for staged, _ in items})
    compiled = _compiled(code, name)
    for index, (staged, path) in enumerate(items):
        _clear_left_behind(keep=staged)
        try:
            os.replace(staged, path)  # replaces whatever the name holds (a link included) without following it
        except OSError as error:
            outcome: dict[str, Any] = {"result": None, "stdout": "", "seconds": 0.0, "saved": []}
            outcome["error"] = _error("bad_input", f"The file could not be given to the function: {error.strerror or error}")
        else:
            outcome = _run_one(compiled, name, path, max_output_chars, max_result_chars)
            outcome["saved"] = _keep_saved(index, outcome["saved"])
        outcome["index"] = index
        _publish(outcome)
        if outcome["error"] and outcome["error"]["kind"] == "output_too_large":
            break


def _reset_saved_dir() -> None:
    import shutil

    with contextlib.suppress(OSError):
        if os.path.islink(SAVED_DIR) or not os.path.isdir(SAVED_DIR):
            os.remove(SAVED_DIR)
        else:
            shutil.rmtree(SAVED_DIR)  # never follows links inside


def _remove_stale_inputs(keep: set[str]) -> None:
    """Staged inputs an earlier, interrupted chunk never reached."""
    for stale in _top_files():
        if stale.startswith(INPUT_PREFIX) and stale not in keep:
            with contextlib.suppress(OSError):
                os.remove(stale)


def _keep_saved(index: int, saved: list[str]) -> list[str]:
    kept: list[str] = []
    for name in saved:
        target = f"{SAVED_DIR}/{index}-{name}"
        try:
            os.makedirs(SAVED_DIR, exist_ok=True)
            os.replace(name, target)
        except OSError:
            continue  # gone, or the directory was tampered with: not an image this item gave us
        with contextlib.suppress(ValueError):
            _left_behind.remove(name)
        kept.append(target)
    return kept


def _compiled(code: str, name: str) -> Any:
    """The code compiled once (a chunk runs it for every item), or the SyntaxError each item reports."""
    try:
        return compile(code, f"<function {name}>", "exec")
    except BaseException as error:  # noqa: BLE001 - reported per item, like any error of the code
        return error


def _run_one(compiled: Any, name: str, path: str, max_output_chars: int, max_result_chars: int) -> dict[str, Any]:
    """Runs the compiled code in a fresh namespace, calls `name(path)`; the outcome, not yet published."""
    _clear_left_behind(keep=path)
    before = _top_files()
    # Where the call starts (the kernel's workspace): a function that moves elsewhere (a scratch
    # directory it never leaves) would otherwise leave the next call's input out of its reach.
    try:
        home: str | None = os.getcwd()
    except OSError:  # the directory itself was removed: nowhere to come back to
        home = None
    out = CappedStream(max_output_chars)
    outcome: dict[str, Any] = {"result": None, "stdout": "", "seconds": 0.0, "error": None, "saved": []}
    started = time.monotonic()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            if isinstance(compiled, BaseException):
                raise compiled
            namespace: dict[str, Any] = {"__name__": "__argus_function__"}
            exec(compiled, namespace)
            fn = namespace.get(name)
            if not callable(fn):
                outcome["error"] = _error("bad_function", f"The code does not define a function named {name}.")
            else:
                outcome["result"] = to_json_safe(fn(path))
    except OutputTooLarge as error:
        outcome["error"] = _error("output_too_large", f"The function was stopped: {error}.")
    except BaseException as error:  # SystemExit and KeyboardInterrupt fail the call, not the kernel
        if isinstance(error, KeyboardInterrupt):
            raise  # the server interrupted it (timeout): let the cell end as interrupted
        lines = traceback.format_exception(type(error), error, error.__traceback__)
        outcome["error"] = _error("raised", f"{type(error).__name__}: {error}\n" + "".join(lines[-6:]))
    outcome["seconds"] = round(time.monotonic() - started, 4)
    if home is not None:
        with contextlib.suppress(OSError):  # gone: the next input cannot be given, and the server replaces the kernel
            os.chdir(home)
    created = sorted(_top_files() - before - {path})
    outcome["saved"] = [name for name in created if name.lower().endswith(IMAGE_SUFFIXES)]
    _left_behind.extend([path, *created])
    outcome["stdout"] = out.getvalue()
    try:
        size = len(json.dumps(outcome["result"], allow_nan=False))
    except (TypeError, ValueError) as error:  # defensive: to_json_safe should make this impossible
        outcome["result"] = repr(outcome["result"])
        size = len(outcome["result"])
        outcome["stdout"] += f"\n[argus: result converted to text: {error}]"
    if size > max_result_chars:
        outcome["result"] = None
        outcome["error"] = _error(
            "output_too_large",
            f"The result is {size} characters as JSON, over the limit of {max_result_chars}. Return a summary (counts, boxes) instead of whole arrays.",
        )
    return outcome
