"""Model-backed tools: describe an image, classify it among given labels.

The kernel has no model and no network: like vqa, these send the image to the
Argus server over the bridge (argus.bridge.call) and the server asks its
vision model. Server contract, for the server side to implement:

  method "describe"
    params  {"image": "<workspace-relative PNG path from image_ref>",
             "focus": "<what to concentrate on>" or null}
    result  a non-empty string: the description.

  method "classify"
    params  {"image": "<path>", "labels": ["cat", "dog", ...] (2-50 distinct),
             "multi_label": bool}
    result  a list [{"label": str, "score": float in [0, 1]}, ...] covering the
            given labels (any order); with multi_label false the scores should
            sum to ~1. A {"label": score} object is accepted too.
"""

from __future__ import annotations

import math
import numbers
from typing import Any, Dict, List, Optional, Sequence

from .. import bridge
from .._convert import type_name
from ..bridge import BridgeError
from ..images import ImageLike
from ._checks import image_rgb, string_list

# Images are shrunk to this longer edge before they travel: the model sees
# ~1.5 MP at most anyway, and smaller files keep the bridge fast.
MODEL_MAX_EDGE = 1568
MAX_LABELS = 50


def describe(image: ImageLike, focus: Optional[str] = None) -> str:
    """Describe an image in words with a vision-language model (through the Argus server).

    When to use: getting an overview of an unfamiliar image before choosing
    tools, summarising a scene, captioning, or describing a crop (an object
    found by another tool). For a specific question ask vqa; for counts and
    measurements prefer the measuring tools, which are exact.

    Args:
        image: a file path, RGB numpy array, PIL image or video frame dict.
        focus: optional aspect to concentrate on, e.g. "the text on the sign"
            or "the condition of the roof".

    Returns:
        The description as a string (a few sentences).

    Raises:
        BridgeError: the server could not answer (no model configured, outside Argus).
    """
    fn = "describe"
    if focus is not None and (not isinstance(focus, str) or not focus.strip()):
        raise TypeError(f"{fn}: focus must be a non-empty string or None, got {type_name(focus)} {focus!r}")
    reference = bridge.image_ref(image_rgb(image, fn), max_edge=MODEL_MAX_EDGE)
    result = bridge.call("describe", {"image": reference, "focus": focus.strip() if focus else None})
    if not isinstance(result, str) or not result.strip():
        raise BridgeError(f"{fn}: the server answered {result!r}, expected a non-empty description string")
    return result.strip()


def classify(image: ImageLike, labels: Sequence[str], multi_label: bool = False) -> List[Dict[str, Any]]:
    """Score how well each of the given labels fits an image, with a vision-language model (through the Argus server).

    When to use: choosing among known categories (product type, defect kind,
    scene type, ripe / unripe, open / closed) for a whole image or for each
    crop found by a detector. Give short, mutually exclusive labels; include
    an "other" label when none may apply.

    Args:
        image: a file path, RGB numpy array, PIL image or video frame dict.
        labels: 2 to 50 distinct candidate labels, e.g. ["cat", "dog", "other"].
        multi_label: False (default) when exactly one label applies (scores
            sum to about 1); True when several may apply (each score is
            independent, 0-1).

    Returns:
        A list of {"label": str, "score": float} for every given label, best
        first. result[0]["label"] is the answer.

    Raises:
        BridgeError: the server could not answer or answered in the wrong form.
    """
    fn = "classify"
    names = string_list(labels, fn, "labels")
    if len(names) < 2:
        raise ValueError(f"{fn}: labels must hold at least 2 candidates (add 'other' if needed), got {names}")
    if len(names) > MAX_LABELS:
        raise ValueError(f"{fn}: at most {MAX_LABELS} labels, got {len(names)}")
    if len({name.lower() for name in names}) != len(names):
        raise ValueError(f"{fn}: labels must be distinct, got {names}")
    if not isinstance(multi_label, bool):
        raise TypeError(f"{fn}: multi_label must be True or False, got {multi_label!r}")
    reference = bridge.image_ref(image_rgb(image, fn), max_edge=MODEL_MAX_EDGE)
    result = bridge.call("classify", {"image": reference, "labels": names, "multi_label": multi_label})
    return _scores(result, names, fn)


def _scores(result: Any, names: List[str], fn: str) -> List[Dict[str, Any]]:
    """The server's answer as [{"label", "score"}] over exactly the requested labels, best first."""
    if isinstance(result, dict):
        result = [{"label": key, "score": value} for key, value in result.items()]
    if not isinstance(result, list):
        raise BridgeError(f"{fn}: the server answered {result!r}, expected a list of {{'label', 'score'}}")
    by_name = {name.lower(): name for name in names}
    scores: Dict[str, float] = {}
    for item in result:
        if not isinstance(item, dict) or not isinstance(item.get("label"), str):
            raise BridgeError(f"{fn}: the server answered an item {item!r}, expected {{'label': str, 'score': number}}")
        score = item.get("score")
        if not isinstance(score, numbers.Real) or isinstance(score, bool) or not math.isfinite(score):
            raise BridgeError(f"{fn}: the server gave label {item['label']!r} the score {score!r}, expected a number")
        name = by_name.get(item["label"].strip().lower())
        if name is None:
            raise BridgeError(f"{fn}: the server answered label {item['label']!r}, which was not among {names}")
        scores[name] = min(1.0, max(0.0, float(score)))
    # Labels the server left out scored nothing.
    ranked = [{"label": name, "score": round(scores.get(name, 0.0), 4)} for name in names]
    return sorted(ranked, key=lambda item: -item["score"])
