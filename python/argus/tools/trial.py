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

    Returns:
        {tool name: {"signature": "name(args...)", "summary": one-line summary,
                     "runs": [one entry per image: {"image": index, "seconds": float,
                              "count": int or None, "output": JSON-safe summary}
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
                output = info.function(image, **extra)
            except Exception as error:  # each candidate fails alone; the others still report
                runs.append({"image": index, "error": f"{type(error).__name__}: {error}"})
                continue
            runs.append(
                {
                    "image": index,
                    "seconds": round(time.perf_counter() - start, 3),
                    "count": len(output) if isinstance(output, list) else None,
                    "output": summarise(output, max_items),
                }
            )
        entry["runs"] = runs
        report[name] = entry
    return report


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
