"""Neural against classical on the real-photo set, for the tools that have both paths.

    ARGUS_URL=http://127.0.0.1:3000 ARGUS_TOKEN=<session token> /usr/bin/python3 bench/vision_neural_vs_classical.py

Runs the real-photo cases (python/tests/real_photos.py) of detect_people, detect_faces and read_text
once with method="classical" (the baseline, in this process) and once with method="neural" (the
Argus server at ARGUS_URL, over HTTP as exported code calls it), every other argument at its
default. A family whose neural model the server does not serve yet (503) is reported so. Prints the
table and writes it to bench/results/vision-neural-vs-classical.md with the machine and its load.
Which default each tool gets follows from this table (docs/vision-tools.md).
"""

from __future__ import annotations

import functools
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Callable, Dict, List, Tuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))

import argus  # noqa: E402
from argus.tools.neural import VisionToolError  # noqa: E402
from tests import real_photos  # noqa: E402
from tests.support import astronaut  # noqa: E402

# Faces: the real-photo set has no face family; these photos have a known number of faces (the
# cameraman is seen in profile, read off a 3x crop).
FACE_CASES: List[Tuple[str, int]] = [("skimage:astronaut", 1), ("grace_hopper", 1), ("messi5.jpg", 1),
                                     ("skimage:camera", 1), ("smarties.png", 0), ("fruits.jpg", 0), ("board.jpg", 0)]


def face_case(name: str, truth: int) -> Callable[[], real_photos.Result]:
    def case() -> real_photos.Result:
        found = argus.detect_faces(real_photos.photo(name))
        return len(found) == truth, f"{len(found)} faces (truth {truth})"

    case.__name__ = f"faces_{name.replace(':', '_').split('.')[0]}"
    return case


FAMILIES: Dict[str, Tuple[str, List[Callable[[], real_photos.Result]]]] = {
    "people": ("detect_people", real_photos.CASES["people"]),
    "faces": ("detect_faces", [face_case(n, t) for n, t in FACE_CASES]),
    "ocr": ("read_text", real_photos.CASES["ocr"]),
}


def run_family(tool: str, cases: List[Callable[[], real_photos.Result]], method: str) -> Tuple[str, float, List[str]]:
    """('passed/total', seconds per case, failure notes), with argus.<tool> switched to `method`."""
    original = getattr(argus, tool)
    setattr(argus, tool, functools.partial(original, method=method))
    passed, seconds, notes = 0, [], []
    try:
        for case in cases:
            start = time.perf_counter()
            try:
                ok, detail = case()
            except VisionToolError as error:
                if error.status == 503:
                    return "not served", 0.0, [str(error)]
                ok, detail = False, f"{type(error).__name__}: {error}"
            seconds.append(time.perf_counter() - start)
            passed += ok
            if not ok:
                notes.append(f"{case.__name__}: {detail}")
    finally:
        setattr(argus, tool, original)
    return f"{passed}/{len(cases)}", statistics.mean(seconds), notes


def main() -> None:
    if not os.environ.get("ARGUS_URL"):
        sys.exit(__doc__)
    argus.detect_people(astronaut(), method="neural")  # the server loads its model once, not inside a timed case
    rows, failures = [], []
    for family, (tool, cases) in FAMILIES.items():
        classical = run_family(tool, cases, "classical")
        neural = run_family(tool, cases, "neural")
        rows.append(f"| {family} | `{tool}` | {len(cases)} | {classical[0]} | {classical[1]:.2f} | {neural[0]} | {neural[1]:.2f} |")
        failures += [f"- classical {note}" for note in classical[2]] + [f"- neural {note}" for note in neural[2]]
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    lines = [
        "# Neural against classical on the real photos",
        "",
        f"`/usr/bin/python3 bench/vision_neural_vs_classical.py` on {platform.node()} ({os.cpu_count()} cores, "
        f"load average {load} at the end), {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. "
        "Baseline: the classical path in this process; neural: the Argus server over HTTP (image upload included).",
        "",
        "| family | tool | cases | classical passed | classical s/case | neural passed | neural s/case |",
        "|---|---|---|---|---|---|---|",
        *rows,
        "",
        "Failed cases:",
        *(failures or ["- none"]),
        "",
    ]
    text = "\n".join(lines)
    print(text)
    out = ROOT / "bench" / "results" / "vision-neural-vs-classical.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)


if __name__ == "__main__":
    main()
