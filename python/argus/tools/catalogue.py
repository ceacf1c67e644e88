"""The catalogue as data, for the server: what each tool is called, how to call it, what it is for.

The server runs `python -m argus.tools.catalogue` once at start and renders the
planner's and coder's prompts from the JSON it prints, so the docstrings and
the registry stay the one source of truth: a tool added to TOOLS reaches the
prompts with no change on the server side.
"""

from __future__ import annotations

import inspect
import json
import re
from typing import Any, Callable, Dict, List

from .registry import TOOLS

_WHEN = re.compile(r"When to use:\s*(.+?)(?:\n\s*\n|$)", re.S)


def when_to_use(function: Callable) -> str:
    """The first sentence of a docstring's 'When to use:' paragraph, on one line ('' when it has none)."""
    found = _WHEN.search(inspect.getdoc(function) or "")
    if not found:
        return ""
    text = " ".join(found.group(1).split())
    sentence = re.split(r"(?<=[.;])\s", text, maxsplit=1)[0]
    return sentence.rstrip(".;")


def catalogue() -> List[Dict[str, Any]]:
    """Every catalogue tool: name, signature, one-line summary, category and when to use it."""
    return [
        {
            "name": info.name,
            "signature": info.signature,
            "summary": info.summary,
            "category": info.category,
            "when": when_to_use(info.function),
        }
        for info in TOOLS.values()
    ]


if __name__ == "__main__":
    print(json.dumps(catalogue()))
