"""Ranking the catalogue's tools for a task description (BM25, pure Python, no external service).

Public: search_tools.

Each tool is a small document: its name and keywords (weighted x3), its
one-line summary (x2) and its docstring (x1). The task's words are reduced
to crude stems and expanded with a few synonyms ("how many" -> count,
"pedestrian" -> person, ...) so everyday phrasing finds technical names.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from functools import lru_cache
from typing import Dict, List, Sequence, Tuple

from .._convert import type_name
from .registry import TOOLS

K1 = 1.2
B = 0.75
FIELD_WEIGHTS = (("name", 3), ("keywords", 3), ("summary", 2), ("doc", 1))

STOP_WORDS = frozenset(
    "a an the of in on at to for from by with and or is are be this that these those it its image images "
    "picture photo photos please can you i me my we find get give show all each every into as than then "
    "there their them they using use which".split()
)
# Everyday words -> the stems the catalogue uses.
SYNONYMS: Dict[str, Tuple[str, ...]] = {
    "many": ("count",), "number": ("count",), "tally": ("count",), "quantity": ("count",),
    "pedestrian": ("person",), "human": ("person",), "man": ("person",), "woman": ("person",),
    "men": ("person",), "women": ("person",), "people": ("person",), "crowd": ("person",),
    "colour": ("color",), "coloured": ("color",), "colored": ("color",),
    "kitten": ("cat",), "feline": ("cat",),
    "round": ("circle",), "coin": ("circle", "count"), "disc": ("circle",), "disk": ("circle",),
    "spot": ("blob",), "dot": ("blob",), "cell": ("blob", "count"),
    "say": ("text", "read"), "written": ("text", "read"), "word": ("text",), "ocr": ("text", "read"),
    "transcribe": ("text", "read"), "letter": ("text",), "document": ("text",),
    "follow": ("track",), "trajectory": ("track",), "moving": ("motion",), "move": ("motion",),
    "clip": ("video",), "footage": ("video",), "movie": ("video",),
    "outline": ("contour", "edge"), "boundary": ("contour", "edge"), "measure": ("contour", "area"),
    "size": ("area",), "angle": ("orientation",), "tilt": ("orientation",),
    "caption": ("describe",), "summarize": ("describe",), "summarise": ("describe",),
    "category": ("classify",), "kind": ("classify",), "type": ("classify",),
    "logo": ("template",), "icon": ("template",), "identical": ("template",),
    "qrcode": ("qr",), "ean": ("barcode",), "upc": ("barcode",),
    "mask": ("segment",), "segmentation": ("segment",),
}


def _stem(word: str) -> str:
    """A crude English stem: plurals and -ing forms folded onto their base."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "ches", "shes", "xes", "zes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    if len(word) > 5 and word.endswith("ing"):
        return word[:-3]
    return word


def tokens(text: str) -> List[str]:
    """Lower-case stems of the words of `text`, stop words dropped."""
    return [_stem(word) for word in re.findall(r"[a-z0-9]+", text.lower()) if word not in STOP_WORDS]


@lru_cache(maxsize=1)
def _index() -> Tuple[Dict[str, Counter], Dict[str, float], float]:
    """Per-tool weighted term counts, document lengths and the average length."""
    documents: Dict[str, Counter] = {}
    for name, info in TOOLS.items():
        fields = {
            "name": " ".join(name.split("_")),
            "keywords": " ".join(info.keywords),
            "summary": info.summary,
            "doc": info.function.__doc__ or "",
        }
        counts: Counter = Counter()
        for field, weight in FIELD_WEIGHTS:
            for token in tokens(fields[field]):
                counts[token] += weight
        documents[name] = counts
    lengths = {name: float(sum(counts.values())) for name, counts in documents.items()}
    average = sum(lengths.values()) / max(1, len(lengths))
    return documents, lengths, average


@lru_cache(maxsize=1)
def _stemmed_synonyms() -> Dict[str, Tuple[str, ...]]:
    """SYNONYMS keyed and valued by stems, as task words are stemmed before lookup."""
    return {_stem(word): tuple(_stem(extra) for extra in extras) for word, extras in SYNONYMS.items()}


def _query_terms(task: str) -> Counter:
    synonyms = _stemmed_synonyms()
    terms: Counter = Counter()
    for token in tokens(task):
        terms[token] += 1.0
        for extra in synonyms.get(token, ()):
            terms[extra] += 0.5
    return terms


def rank_tools(task: str) -> List[Tuple[str, float]]:
    """(tool name, BM25 score) for every tool with a positive score, best first."""
    documents, lengths, average = _index()
    total = len(documents)
    scores: Dict[str, float] = {}
    for term, query_weight in _query_terms(task).items():
        holders = [name for name, counts in documents.items() if term in counts]
        if not holders:
            continue
        idf = math.log(1 + (total - len(holders) + 0.5) / (len(holders) + 0.5))
        for name in holders:
            frequency = documents[name][term]
            norm = frequency * (K1 + 1) / (frequency + K1 * (1 - B + B * lengths[name] / average))
            scores[name] = scores.get(name, 0.0) + query_weight * idf * norm
    return sorted(scores.items(), key=lambda item: (-item[1], item[0]))


def search_tools(task: str, k: int = 5, exclude: Sequence[str] = ()) -> List[str]:
    """Name the tools most likely to help with a task, best first (local keyword ranking, no model).

    When to use: before writing code for a task, to find which Argus tools fit
    (then read help(tool) or argus.tools.TOOLS[name].doc and try them on the
    image). The ranking matches words, so name the objects and the goal:
    "count the coins", "read the serial number on the label",
    "track the cars in the video".

    Args:
        task: the task in plain words.
        k: how many tool names to return at most (1-50, default 5).
        exclude: tool names to leave out (e.g. ones already tried).

    Returns:
        Up to k tool names (keys of argus.tools.TOOLS), best match first; an
        empty list when no word of the task matches any tool.
    """
    fn = "search_tools"
    if not isinstance(task, str):
        raise TypeError(f"{fn}: task must be a string, got {type_name(task)}")
    if not task.strip():
        raise ValueError(f"{fn}: task must describe what you want to do, got an empty string")
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= 50:
        raise ValueError(f"{fn}: k must be an integer between 1 and 50, got {k!r}")
    if isinstance(exclude, str):
        exclude = [exclude]
    if not isinstance(exclude, (list, tuple, set, frozenset)):
        raise TypeError(f"{fn}: exclude must be a list of tool names, got {type_name(exclude)}")
    skipped = set(exclude)
    return [name for name, _ in rank_tools(task) if name not in skipped][:k]
