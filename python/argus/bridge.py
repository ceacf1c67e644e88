"""Calls from kernel code into the Argus server, over the kernel's stdin channel.

Why stdin: the kernel holds no credentials and may have no network. During a
cell, ipykernel turns input(prompt) into an `input_request` message on the
stdin channel, which the Argus server (the kernel's only client) answers with
an `input_reply`. The server recognises bridge requests by PREFIX.

Wire format (one request, one reply, both single-line JSON):
  prompt  = PREFIX + {"id": "<uuid4 hex>", "method": "<name>", "params": {...}}
  reply   = {"id": "<same id>", "result": <any JSON>}
         or {"id": "<same id>", "error": {"message": "<text>"}}
Images never travel inside the JSON: image_ref() saves them in the workspace
and the params carry the relative path.

Public here: call, ping, image_ref, BridgeError, PREFIX. Model-backed tools
(vqa, suggestion, ...) are built on call().
"""

import builtins
import json
import threading
import uuid
from pathlib import Path
from typing import Any, Dict, Optional

from PIL import Image

from . import workspace_transfer
from ._convert import type_name
from .images import ImageLike, as_rgb, fit_within

try:  # ipykernel raises this when the client did not allow stdin for the cell
    from IPython.core.error import StdinNotImplementedError
except ImportError:  # pragma: no cover - IPython is always present in kernels

    class StdinNotImplementedError(Exception):  # type: ignore[no-redef]
        """Stand-in so the except clause below works without IPython."""


PREFIX = "\x1eargus-bridge:"
BRIDGE_DIR = Path(".argus") / "bridge"

# input() talks over one zmq socket and waits for one reply; two threads
# interleaving requests would read each other's replies, so calls take turns.
_lock = threading.Lock()


class BridgeError(RuntimeError):
    """A bridge call failed: the server reported an error, or the bridge is not available."""


def call(method: str, params: Optional[Dict[str, Any]] = None) -> Any:
    """Call `method` on the Argus server with JSON `params` and return its result.

    Blocks until the server replies. Only works inside a cell run by the Argus
    server (which allows stdin); elsewhere it raises BridgeError.

    Args:
        method: the server method name, e.g. "ping".
        params: a JSON-serialisable dict (put images in via image_ref, never as arrays).

    Returns:
        The "result" of the server's reply (any JSON value).

    Raises:
        BridgeError: the server answered with an error, the reply was malformed,
            or the bridge is not available (no stdin, e.g. outside Argus).
        TypeError/ValueError: bad method or params (named in the message).
    """
    if not isinstance(method, str) or not method.strip():
        raise ValueError(f"call: method must be a non-empty string, got {method!r}")
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise TypeError(f"call: params must be a dict, got {type_name(params)}")
    request_id = uuid.uuid4().hex
    try:
        payload = json.dumps({"id": request_id, "method": method, "params": params}, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise TypeError(
            f"call: params for {method!r} must be JSON-serialisable ({error}); "
            "pass images with image_ref(image), numbers as int/float"
        ) from None

    with _lock:
        try:
            # builtins.input is looked up now, not at import: ipykernel swaps in
            # its stdin-forwarding input() only while a cell runs.
            reply = builtins.input(PREFIX + payload)
            # A server that does not share this kernel's disk (transport `kernel`) first asks
            # for the files the params name, in checked chunks, over this same channel.
            while (wanted := _transfer_request(reply, request_id)) is not None:
                answered = workspace_transfer.answer(wanted.get("op"), wanted.get("args"), workspace_transfer.READ_ONLY)
                reply = builtins.input(PREFIX + json.dumps({"id": request_id, "transfer_answer": answered}))
        except StdinNotImplementedError as error:
            raise BridgeError(
                f"The Argus bridge is not available: this kernel's client does not accept input requests ({error})"
            ) from None
        except EOFError:
            raise BridgeError(
                "The Argus bridge is not available: stdin was closed (not running inside an Argus session?)"
            ) from None
    return _result_of(reply, request_id, method)


def _transfer_request(reply: Any, request_id: str) -> Optional[Dict[str, Any]]:
    """The server's request for a workspace file in place of a reply, if that is what `reply` is."""
    if not isinstance(reply, str) or '"transfer"' not in reply:
        return None
    try:
        message = json.loads(reply)
    except ValueError:
        return None
    if isinstance(message, dict) and message.get("id") == request_id and isinstance(message.get("transfer"), dict):
        return message["transfer"]
    return None


def _result_of(reply: Any, request_id: str, method: str) -> Any:
    """The result carried by a reply string, or BridgeError."""
    if not isinstance(reply, str):
        raise BridgeError(f"The Argus bridge returned a {type_name(reply)} for {method!r}, expected JSON text")
    try:
        message = json.loads(reply)
    except ValueError:
        raise BridgeError(f"The Argus bridge returned non-JSON for {method!r}: {reply[:200]!r}") from None
    if not isinstance(message, dict):
        raise BridgeError(f"The Argus bridge returned {reply[:200]!r} for {method!r}, expected a JSON object")
    if message.get("id") != request_id:
        raise BridgeError(
            f"The Argus bridge answered request {message.get('id')!r} while waiting for {request_id!r} ({method!r})"
        )
    if message.get("error") is not None:
        error = message["error"]
        text = error.get("message") if isinstance(error, dict) else error
        raise BridgeError(str(text) if text else f"{method!r} failed without a message")
    if "result" not in message:
        raise BridgeError(f"The Argus bridge reply for {method!r} has neither 'result' nor 'error'")
    return message["result"]


def ping(text: str) -> str:
    """Check that the Argus server answers from this kernel: returns `text` echoed
    by the server. You never need this for a task."""
    if not isinstance(text, str):
        raise TypeError(f"ping: text must be a string, got {type_name(text)}")
    result = call("ping", {"text": text})
    if not isinstance(result, str):
        raise BridgeError(f"ping: the server answered {result!r}, expected a string")
    return result


def image_ref(image: ImageLike, max_edge: Optional[int] = None) -> str:
    """Save an image where the server can read it and return its path for bridge params.

    Args:
        image: anything load_image accepts.
        max_edge: optionally shrink so the longer edge is at most this many pixels.

    Returns:
        A workspace-relative path ".argus/bridge/<uuid hex>.png" (forward slashes).
    """
    pixels = fit_within(as_rgb(image, "image_ref", "image"), max_edge)
    BRIDGE_DIR.mkdir(parents=True, exist_ok=True)
    relative = BRIDGE_DIR / f"{uuid.uuid4().hex}.png"
    # Written under a temporary name and renamed, so the server never reads a half-written file.
    partial = relative.with_suffix(".png.part")
    Image.fromarray(pixels, mode="RGB").save(partial, format="PNG", compress_level=3)
    partial.replace(relative)
    return relative.as_posix()
