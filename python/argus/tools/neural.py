"""Neural vision tools: objects by class, people, poses, faces, person masks and text.

The models live in the Argus server (loaded once per process, run off its event
loop); the kernel has no weights and no network. So each tool sends the image
to the server and returns its JSON answer unchanged, whichever way it goes:

- inside an Argus kernel, over the bridge (argus.bridge, method "vision_tool"),
  counted against the cell's bridge-call limit and the run's budgets;
- anywhere else (an exported function on a laptop), over HTTP to
  $ARGUS_URL/api/tools/<name> with `Authorization: Bearer $ARGUS_TOKEN`
  (argus.tools._remote, standard library only). ARGUS_URL wins when set.

Both ways carry the same PNG of the same pixels and get the same JSON back.

Public: detect_objects, detect_poses, segment_people, call_tool, decode_mask,
VisionToolError. detect_people, detect_faces and read_text reach their neural
models through `method` (faces.py, people.py, ocr.py): "auto", their default,
takes the neural path when a server is reachable (inside an Argus kernel, or
ARGUS_URL set) and the classical one otherwise, saying so once on stderr.
"""

from __future__ import annotations

import base64
import io
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, TypeVar

import numpy as np
from PIL import Image

from .. import bridge
from .._convert import type_name
from ..images import ImageLike
from . import _remote
from ._checks import fraction, image_rgb, string_list

# How long a call may keep waiting for a full inference queue before it gives up.
BUSY_WAIT_SECONDS = 30.0
METHODS = ("auto", "neural", "classical")
T = TypeVar("T")
_warned: set = set()  # tools that already said on stderr that "auto" ran classical


class VisionToolError(RuntimeError):
    """A neural tool failed on the server (busy for too long, unavailable, refused the token...)."""

    def __init__(self, message: str, status: int = 500, code: str = "", field: Optional[str] = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.field = field


def _in_kernel() -> bool:
    """Whether this code runs in a Jupyter kernel (where the Argus bridge may answer)."""
    try:
        from IPython import get_ipython  # noqa: PLC0415 - IPython is only there in kernels
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def _png(pixels: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(pixels, mode="RGB").save(buffer, format="PNG", compress_level=3)
    return buffer.getvalue()


def _send(name: str, pixels: np.ndarray, params: Dict[str, Any]) -> _remote.Answer:
    """One attempt, by HTTP when ARGUS_URL is set, else over the kernel's bridge."""
    if os.environ.get("ARGUS_URL", "").strip():
        return _remote.post_tool(name, _png(pixels), params)
    if not _in_kernel():
        _remote.settings()  # raises RemoteNotConfigured with the instructions
    reference = bridge.image_ref(pixels)
    try:
        reply = bridge.call("vision_tool", {"name": name, "image": reference, "params": params})
    finally:
        Path(reference).unlink(missing_ok=True)  # the server has read it; it only takes quota now
    if not isinstance(reply, dict) or not isinstance(reply.get("status"), int):
        raise bridge.BridgeError(f"{name}: the server answered {reply!r}, expected {{status, body}}")
    return _remote.Answer(reply["status"], reply.get("body"), reply.get("retryAfter"))


def _failure(name: str, answer: _remote.Answer) -> Exception:
    """The exception for an answer that is not 200: ValueError for what the caller can fix."""
    error = answer.body.get("error") if isinstance(answer.body, dict) else None
    message = error.get("message") if isinstance(error, dict) else None
    code = error.get("code", "") if isinstance(error, dict) else ""
    field = error.get("field") if isinstance(error, dict) else None
    text = f"{name}: {message or f'the server answered {answer.status}'}"
    if answer.status in (400, 404, 413, 415):
        return ValueError(text)
    return VisionToolError(text, answer.status, code, field)


def call_tool(name: str, image: ImageLike, **params: Any) -> Any:
    """Run the server's neural tool `name` on one image and return its JSON result.

    Keyword arguments left as None are not sent (the tool's default applies).
    A full inference queue (429) is waited out, up to BUSY_WAIT_SECONDS.
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"call_tool: name must be a tool name, got {type_name(name)} {name!r}")
    pixels = image_rgb(image, name)
    sent = {key: value for key, value in params.items() if value is not None}
    deadline = time.monotonic() + BUSY_WAIT_SECONDS
    while True:
        answer = _send(name, pixels, sent)
        if answer.status == 200 and isinstance(answer.body, dict) and "result" in answer.body:
            return answer.body["result"]
        wait = answer.retry_after if answer.retry_after is not None else 1.0
        if answer.status == 429 and time.monotonic() + wait <= deadline:
            time.sleep(wait)
            continue
        raise _failure(name, answer)


def check_method(method: Any, fn: str) -> str:
    """'auto', 'neural' or 'classical'; a clear error otherwise."""
    if not isinstance(method, str) or method.strip().lower() not in METHODS:
        raise ValueError(f"{fn}: method must be 'auto', 'neural' or 'classical', got {method!r}")
    return method.strip().lower()


def reachable() -> bool:
    """Whether a neural tool can be asked: ARGUS_URL is set, or this runs in a kernel (the bridge)."""
    return bool(os.environ.get("ARGUS_URL", "").strip()) or _in_kernel()


def _say_classical(fn: str, why: str) -> None:
    if fn not in _warned:
        _warned.add(fn)
        print(f"{fn}: method='auto' ran the classical tool ({why}); pass method= to choose", file=sys.stderr)


def by_method(method: Any, fn: str, neural_path: Callable[[], T], classical_path: Callable[[], T],
              auto_path: Optional[Callable[[], T]] = None) -> T:
    """Run a tool's neural or classical path as its `method` argument says.

    "auto" (the default of detect_people, detect_faces, read_text) runs
    `auto_path` (default: the neural path) when a server is reachable, and
    the classical path when none is (not in an Argus kernel, ARGUS_URL unset)
    or when the server fails (down, busy too long, models missing, or the
    bridge refuses: a kernel without the vision method, the cell's call limit
    spent), with a one-line note on stderr, once per tool and process:
    offline code keeps working and says which path it measured. "neural" lets
    those errors raise.
    """
    chosen = check_method(method, fn)
    if chosen == "classical":
        return classical_path()
    if chosen == "neural":
        return neural_path()
    if not reachable():
        _say_classical(fn, "no Argus server reachable: not in an Argus kernel and ARGUS_URL unset")
        return classical_path()
    try:
        return (auto_path or neural_path)()
    except (VisionToolError, ConnectionError, bridge.BridgeError) as error:
        _say_classical(fn, f"the neural tool failed: {error}")
        return classical_path()


def detect_objects(image: ImageLike, labels: Optional[Sequence[str]] = None, box_threshold: float = 0.3) -> List[Dict[str, Any]]:
    """Find everyday objects by class with a neural detector (COCO's 80 classes, on the Argus server).

    When to use: counting or locating common things by name in photos — cars,
    bicycles, dogs, cats, bottles, cups, chairs, laptops, phones, traffic
    lights, people — where classical tools cannot tell one kind of object from
    another. For coins, cells or sweets on a plain background count_objects and
    detect_circles are more exact; for a kind outside COCO's 80, try
    find_template with an example crop or classify crops with vqa.

    Args:
        image: a file path, RGB numpy array, PIL image or video frame dict.
        labels: COCO class names to keep, e.g. ["car", "truck"] (None: every class).
            An unknown name is refused with the list of known ones.
        box_threshold: minimum score in [0, 1] (default 0.3). Lower it (0.15) when
            objects are small, far or partly hidden and some are missed; raise it
            (0.5-0.7) when the boxes include false hits.

    Returns:
        A list of {"label": str, "score": float, "bbox": [x1, y1, x2, y2]} in
        pixels of the given image, best score first. Empty when nothing is found.

    Example:
        cars = detect_objects("street.jpg", labels=["car", "truck", "bus"])
        view_image(overlay_bounding_boxes("street.jpg", cars))
    """
    fn = "detect_objects"
    names = None if labels is None else string_list(labels, fn, "labels")
    return call_tool(fn, image, labels=names, box_threshold=fraction(box_threshold, fn, "box_threshold"))


def detect_poses(image: ImageLike, box_threshold: float = 0.3) -> List[Dict[str, Any]]:
    """Find people and their body keypoints (nose, eyes, shoulders, elbows, wrists, hips, knees, ankles) with a neural pose model.

    When to use: the way people stand or move — raised arms, sitting or standing,
    which way someone faces, hands up, measuring a joint angle. For boxes
    alone, detect_people is enough.

    Args:
        image: a file path, RGB numpy array, PIL image or video frame dict.
        box_threshold: minimum person score in [0, 1] (default 0.3). Lower it
            (0.15) for small or partly hidden people; raise it (0.5) to drop doubtful ones.

    Returns:
        A list of {"label": "person", "score": float, "bbox": [x1, y1, x2, y2],
        "keypoints": [{"name": str, "x": float, "y": float, "score": float}]},
        best first. Judge a keypoint by its own score: below ~0.3 it is a guess
        (hidden or out of frame).
    """
    fn = "detect_poses"
    return call_tool(fn, image, box_threshold=fraction(box_threshold, fn, "box_threshold"))


def segment_people(image: ImageLike, threshold: float = 0.5) -> Dict[str, Any]:
    """A pixel mask of the human figures in the image (neural segmentation).

    When to use: cutting figures out, blurring or replacing the background,
    measuring the share of the frame a figure covers. For boxes use
    detect_people; for objects that are not human, segment_color.

    Args:
        image: a file path, RGB numpy array, PIL image or video frame dict.
        threshold: the score a pixel needs to be part of a figure, in [0, 1]
            (default 0.5). Lower it (0.3) when hair, arms or dark clothes are
            cut off; raise it (0.7) when the mask spills onto the background.

    Returns:
        {"mask": base64 PNG (white = person), "width": int, "height": int,
        "coverage": fraction of the pixels in the mask, ...}. decode_mask(result)
        gives the mask as an HxW bool array, e.g. for overlay_segmentation_masks.
    """
    fn = "segment_people"
    return call_tool(fn, image, threshold=fraction(threshold, fn, "threshold"))


def decode_mask(result: Any) -> np.ndarray:
    """The HxW bool mask carried by a segment_people result.

    Args:
        result: what segment_people returned ({"mask": base64 PNG, ...}).

    Returns:
        An HxW numpy bool array, True where the mask is white (a person).
    """
    encoded = result.get("mask") if isinstance(result, dict) else None
    if not isinstance(encoded, str):
        raise TypeError(f"decode_mask: expected a segment_people result with a 'mask' string, got {type_name(result)}")
    if "," in encoded[:40] and encoded.startswith("data:"):
        encoded = encoded.split(",", 1)[1]
    picture = Image.open(io.BytesIO(base64.b64decode(encoded)))
    return np.asarray(picture.convert("L")) >= 128


# The neural paths of detect_people, detect_faces and read_text (method="neural"); the
# classical modules keep their own arguments, applied here to the server's answer.


def people(image: ImageLike, box_threshold: float, min_height: Optional[int]) -> List[Dict[str, Any]]:
    """detect_people's neural path: the server's person boxes, those shorter than min_height dropped."""
    found = call_tool("detect_people", image, box_threshold=box_threshold)
    return [item for item in found if min_height is None or item["bbox"][3] - item["bbox"][1] >= min_height]


def faces(image: ImageLike, box_threshold: float, low: Optional[int], high: Optional[int]) -> List[Dict[str, Any]]:
    """detect_faces' neural path: the server's face boxes within [min_size, max_size] on their longer side."""
    found = call_tool("detect_faces", image, box_threshold=box_threshold)

    def side(item: Dict[str, Any]) -> float:
        x1, y1, x2, y2 = item["bbox"]
        return max(x2 - x1, y2 - y1)

    return [item for item in found if (low is None or side(item) >= low) and (high is None or side(item) <= high)]


def text(image: ImageLike) -> str:
    """read_text's neural path: the text the server's text reader found, lines joined by newlines."""
    result = call_tool("read_text", image)
    if isinstance(result, dict) and isinstance(result.get("text"), str):
        return result["text"].strip()
    raise VisionToolError(f"read_text: the server answered {result!r}, expected {{'text', 'lines'}}")
