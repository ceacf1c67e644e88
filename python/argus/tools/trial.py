"""Trying candidate tools on the user's images: the kernel half of get_tool_for_task.

Public (for the server, not listed for the planner): try_tools.

The server picks candidates with search_tools(task), then runs one cell such as
    print(json.dumps(try_tools(["count_objects", "detect_circles"], ["coins.jpg"])))
and shows the summaries (and overlays, if it wants) to its judge model. Every
tool runs in a try/except of its own, so one failing candidate never hides
the others, and outputs are reduced to JSON-safe summaries: masks and
contours become short descriptions, long lists are cut.
"""

from __future__ import annotations

import inspect
import math
import numbers
import signal
import threading
import time
from typing import Any, Dict, Optional, Sequence

import numpy as np

from .._convert import type_name
from ._checks import fraction
from .registry import TOOLS

MAX_ITEMS = 20
# Tools that cannot run on an image alone: the missing argument is reported instead.
NEEDS = {
    "segment_color": "color (e.g. 'red') or hsv_range",
    "find_template": "template (an example image or box)",
    "classify": "labels (candidate categories)",
    "vqa": "prompt (a question)",
    "detect_motion": "frames (a list of video frames)",
    "track_objects": "frames (a list of video frames)",
    "track_box": "frames and box",
}


def try_tools(
    names: Sequence[str],
    images: Sequence[Any],
    box_threshold: Optional[float] = None,
    max_items: int = MAX_ITEMS,
    time_limit: Optional[float] = None,
) -> Dict[str, Any]:
    """Run candidate tools on images and summarise what each one returned.

    When to use: choosing between tools for a task (the server's
    get_tool_for_task step): run the candidates from search_tools on the
    user's images and compare counts, scores and boxes.

    Args:
        names: tool names (keys of TOOLS), e.g. search_tools("count the coins").
        images: images to try them on (paths, arrays, PIL images); a single image is accepted.
        box_threshold: if given, passed to every tool that has a box_threshold
            parameter (e.g. 0.05 to show a human reviewer weak candidates too).
        max_items: at most this many detections are listed per result (the count is always exact).
        time_limit: seconds one tool may take on one image; a slower run is
            stopped and reported as an error (main thread only, where signals work).

    Returns:
        {tool name: {"signature": "name(args...)", "summary": one-line summary,
                     "runs": [one entry per image: {"image": index, "seconds": float,
                              "count": int or None, "output": JSON-safe summary,
                              "boxes": [{"label", "score", "bbox": [x1, y1, x2, y2]}] when
                              the tool returned detections}
                              or {"image": index, "error": "ExceptionType: message"}],
                     "skipped": reason (only when the tool needs more than an image)}}.
        Unknown names map to {"error": "unknown tool ..."}.
    """
    fn = "try_tools"
    if isinstance(names, str):
        names = [names]
    if not isinstance(names, (list, tuple)):
        raise TypeError(f"{fn}: names must be a list of tool names, got {type_name(names)}")
    if not isinstance(images, (list, tuple)):
        images = [images]
    threshold = None if box_threshold is None else fraction(box_threshold, fn, "box_threshold")
    if not isinstance(max_items, int) or isinstance(max_items, bool) or max_items < 0:
        raise ValueError(f"{fn}: max_items must be a non-negative integer, got {max_items!r}")
    if time_limit is not None and (not isinstance(time_limit, (int, float)) or isinstance(time_limit, bool) or time_limit <= 0):
        raise ValueError(f"{fn}: time_limit must be a positive number of seconds, got {time_limit!r}")

    report: Dict[str, Any] = {}
    for name in names:
        info = TOOLS.get(name) if isinstance(name, str) else None
        if info is None:
            report[str(name)] = {"error": f"unknown tool {name!r}; known: {', '.join(sorted(TOOLS))}"}
            continue
        entry: Dict[str, Any] = {"signature": info.signature, "summary": info.summary}
        if name in NEEDS:
            entry["skipped"] = f"needs {NEEDS[name]}"
            report[name] = entry
            continue
        extra = {}
        if threshold is not None and "box_threshold" in inspect.signature(info.function).parameters:
            extra["box_threshold"] = threshold
        runs = []
        for index, image in enumerate(images):
            start = time.perf_counter()
            try:
                with _time_limit(time_limit):
                    output = info.function(image, **extra)
            except _TooSlow:
                runs.append({"image": index, "error": f"took longer than {time_limit:g} s"})
                continue
            except Exception as error:  # each candidate fails alone; the others still report
                runs.append({"image": index, "error": f"{type(error).__name__}: {error}"})
                continue
            run = {
                "image": index,
                "seconds": round(time.perf_counter() - start, 3),
                "count": len(output) if isinstance(output, list) else None,
                "output": summarise(output, max_items),
            }
            boxes = _boxes(output, max_items)
            if boxes:
                run["boxes"] = boxes
            runs.append(run)
        entry["runs"] = runs
        report[name] = entry
    return report


class _TooSlow(Exception):
    """A candidate ran past try_tools' time_limit."""


class _time_limit:
    """Raises _TooSlow in the running code after `seconds` (no limit when None or off the main thread)."""

    def __init__(self, seconds: Optional[float]) -> None:
        self.seconds = seconds if threading.current_thread() is threading.main_thread() else None

    def __enter__(self) -> None:
        if self.seconds is None:
            return
        self.previous = signal.signal(signal.SIGALRM, self._expire)
        signal.setitimer(signal.ITIMER_REAL, self.seconds)

    def __exit__(self, *exc: Any) -> None:
        if self.seconds is None:
            return
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self.previous)

    @staticmethod
    def _expire(*_: Any) -> None:
        raise _TooSlow()


def _boxes(output: Any, max_items: int) -> list:
    """Detections as plain numbers: what a reviewer's overlay draws (label, score, box corners)."""
    items = output if isinstance(output, (list, tuple)) else output.get("detections", []) if isinstance(output, dict) else []
    boxes = []
    for item in list(items)[:max_items]:
        if not isinstance(item, dict) or "bbox" not in item:
            continue
        try:
            bbox = [float(v) for v in list(item["bbox"])[:4]]
            score = float(item.get("score", 1.0))
        except (TypeError, ValueError):
            continue
        if len(bbox) == 4 and all(math.isfinite(v) for v in bbox) and math.isfinite(score):
            boxes.append({"label": str(item.get("label", "")), "score": score, "bbox": bbox})
    return boxes


def summarise(value: Any, max_items: int = MAX_ITEMS) -> Any:
    """A JSON-serialisable version of a tool output: arrays described, lists cut to max_items."""
    if isinstance(value, dict):
        return {str(key): _summarise_field(key, item, max_items) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        shown = [summarise(item, max_items) for item in list(value)[:max_items]]
        if len(value) > max_items:
            shown.append(f"... {len(value) - max_items} more")
        return shown
    if isinstance(value, np.ndarray):
        return _describe_array(value)
    if isinstance(value, (np.integer, np.floating, np.bool_)):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if value is None or isinstance(value, (str, bool, numbers.Integral, float)):
        return value
    return f"<{type_name(value)}>"


def _summarise_field(key: Any, value: Any, max_items: int) -> Any:
    if key in ("mask", "contour") and isinstance(value, np.ndarray):
        return _describe_array(value)
    return summarise(value, max_items)


def _describe_array(array: np.ndarray) -> str:
    if array.dtype == bool:
        return f"<bool array {'x'.join(map(str, array.shape))}, {int(array.sum())} True>"
    return f"<{array.dtype} array {'x'.join(map(str, array.shape))}>"
