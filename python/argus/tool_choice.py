"""get_tool_for_task: let the catalogue's candidate tools compete on your image.

The kernel finds candidates locally (retrieval over the catalogue's names,
keywords and docstrings); the Argus server runs them in an isolated kernel,
asks its judge model to pick one, and, with tool review on, shows every
candidate's boxes to the person, who picks the tool and the threshold.
"""

import inspect

from . import bridge


def _as_list(images):
    if images is None:
        raise ValueError("get_tool_for_task: images must be an image or a list of images, got None")
    if isinstance(images, (list, tuple)):
        if not images:
            raise ValueError("get_tool_for_task: images must not be empty")
        return list(images)
    return [images]


def get_tool_for_task(task, images, k=3):
    """Find the best tool for a task by trying candidate tools on your images.

    Args:
        task: what you need, e.g. "count the coins" or "find every face".
        images: one image or a list (workspace paths, numpy arrays, PIL images
            or matplotlib figures); the first one is used to compare tools.
        k: how many candidate tools to try (1-6). Candidates are the best
            catalogue matches for the task, preferring tools with higher pass
            rates on real photographs (argus.tools.real_photo_scores).
    Returns:
        A dict {"tool": name or None, "box_threshold": float or None,
        "reviewed": True when the person chose, "thoughts": the judge's
        reasoning, "predicted_answer": str, "candidates": {name: {"count",
        "error"?, "seconds"}}}. It also prints the chosen tool's documentation
        and a one-line summary of every candidate.
    When to use: before you pick a detector or counter for a new kind of
    object, instead of guessing which tool and threshold fit.
    """
    if not isinstance(task, str) or not task.strip():
        raise ValueError("get_tool_for_task: task must be a non-empty string")
    if not isinstance(k, int) or not 1 <= k <= 6:
        raise ValueError(f"get_tool_for_task: k must be an integer from 1 to 6, got {k!r}")
    from .tools import TOOLS, search_tools

    from .tools.real_photo_scores import prefer_by_real_photos

    # A few more matches than asked for, then the ones that hold up on real
    # photographs (the benchmark's real-photo table) are preferred.
    from .tools.search import rank_tools

    relevance = dict(rank_tools(task))
    matches = list(search_tools(task, k=min(50, k + 2)))
    candidates = prefer_by_real_photos([(name, relevance.get(name, 0.0)) for name in matches], k)
    if not candidates:
        raise ValueError(f"get_tool_for_task: no tool in the catalogue matches {task!r}")
    refs = [bridge.image_ref(image) for image in _as_list(images)[:4]]
    result = bridge.call("get_tool_for_task", {"task": task, "images": refs, "candidates": candidates})

    print("Candidates tried on your image:")
    for name, info in result.get("candidates", {}).items():
        outcome = info.get("error") or f"{info.get('count', 0)} result(s)"
        print(f"  - {name}: {outcome}")
    tool = result.get("tool")
    if tool is None:
        print("No candidate worked. " + result.get("thoughts", ""))
        return result
    how = "you chose" if result.get("reviewed") else "the judge chose"
    threshold = result.get("box_threshold")
    print(f"Use {tool}" + (f" with box_threshold={threshold:.2f}" if threshold is not None else "") + f" ({how}).")
    if result.get("predicted_answer"):
        print(f"Expected answer: {result['predicted_answer']}")
    entry = TOOLS.get(tool) if hasattr(TOOLS, "get") else None
    function = entry if callable(entry) else getattr(entry, "function", None) or (entry.get("function") if isinstance(entry, dict) else None)
    if function is not None:
        print(f"\n{tool}{inspect.signature(function)}\n{inspect.getdoc(function) or ''}")
    return result
