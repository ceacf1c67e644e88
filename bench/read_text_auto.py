"""read_text's three methods on the real-photo text cases: tesseract ("classical"), the server's
neural reader ("neural") and the default ("auto": neural first, tesseract when choose_reader says
the reading is a page or weak). Same cases and judges as bench/real_photo_table.py (the ocr family
of python/tests/real_photos.py, the scene-text family of real_photos_everyday.py), all three
measured in this run; writes bench/results/read-text-auto.md with the machine and load average.

    ARGUS_URL=http://127.0.0.1:3000 ARGUS_TOKEN=<session token> /usr/bin/python3 bench/read_text_auto.py
(run from python/ with PYTHONPATH=. so `argus` and `tests` import; the neural and auto sides post
each photo to $ARGUS_URL/api/tools/read_text.)
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, Dict, List, Tuple

import importlib

import argus
from tests import real_photos, real_photos_everyday

sys.path.insert(0, str(Path(__file__).resolve().parent))
from real_photo_table import machine  # noqa: E402

neural = importlib.import_module("argus.tools.neural")
ocr = importlib.import_module("argus.tools.ocr")  # argus.tools.ocr the name is the ocr() function
RESULTS = Path(__file__).resolve().parent / "results" / "read-text-auto.md"
METHODS = ("classical", "neural", "auto")


def cases() -> List[Tuple[str, str, Callable[[Callable], Tuple[bool, str]]]]:
    """(family, name, run(read) -> (passed, detail)) for every text case."""
    out = []
    for case in real_photos.CASES["ocr"]:
        def run(read, case=case):
            real_photos.TOOLS["read_text"] = read
            return case()
        out.append(("ocr", case.__name__, run))
    for case in real_photos_everyday.FAMILIES["scene text"]:
        out.append(("scene text", case.name,
                    lambda read, case=case: case.judge(read(real_photos.photo(case.photo)))))
    return out


def routed(pixels) -> str:
    """Which reader auto ends with on this photo (one extra neural call, not timed)."""
    result = neural.call_tool("read_text", pixels)
    return ocr.choose_reader(result["lines"])


def main() -> None:
    saved = dict(real_photos.TOOLS)
    neural.call_tool("read_text", real_photos.photo("smarties.png"))  # warm-up: model loading
    load_before = os.getloadavg()
    started = time.time()
    rows: Dict[str, List[Tuple[str, str, bool, float, str]]] = {m: [] for m in METHODS}
    routes: Dict[str, str] = {}
    try:
        for family, name, run in cases():
            for method in METHODS:
                def read(pixels, method=method, name=name):
                    if method == "auto":
                        routes[name] = routed(pixels)
                    start = time.perf_counter()
                    text = argus.read_text(pixels, method=method)
                    read.seconds = time.perf_counter() - start
                    return text
                read.seconds = 0.0
                passed, detail = run(read)
                rows[method].append((family, name, bool(passed), read.seconds, detail))
                print(method, family, name, passed, f"{read.seconds:.2f}s", detail, flush=True)
    finally:
        real_photos.TOOLS.update(saved)
    load_after = os.getloadavg()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=Path(__file__).parent).stdout.strip()
    lines = ["| family | cases | " + " | ".join(f"{m} passed | s/call" for m in METHODS) + " |",
             "|---|---|" + "---|---|" * len(METHODS)]
    for family in ("ocr", "scene text", "both"):
        cells = []
        for method in METHODS:
            members = [r for r in rows[method] if family in ("both", r[0])]
            passed = sum(r[2] for r in members)
            cells.append(f"{passed}/{len(members)} | {statistics.mean(r[3] for r in members):.2f}")
        lines.append(f"| {family} | {len([r for r in rows['auto'] if family in ('both', r[0])])} | " + " | ".join(cells) + " |")
    failed = [f"- {m} {r[0]}/{r[1]}: {r[4]}" for m in METHODS for r in rows[m] if not r[2]]
    text = "\n".join([
        "# read_text: tesseract, neural and auto on the real-photo text cases", "",
        f"Run {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(started))} at commit {commit}, "
        f"{time.time() - started:.0f} s; machine: {machine()}; load average {load_before[0]:.1f} before, "
        f"{load_after[0]:.1f} after (1-minute). Neural side: {os.environ.get('ARGUS_URL')}.", "",
        "\n".join(lines), "",
        f"auto's rule (python/argus/tools/ocr.py choose_reader, constants tuned on these cases): tesseract when "
        f"the neural reading has >= {ocr.PAGE_LINES} lines (a page) or < {ocr.MIN_LETTERS} letters in lines "
        f"scored >= {ocr.SURE_LINE} (weak); else the neural text. s/call: wall time of one read_text call "
        "(neural and auto: PNG upload and HTTP included; auto includes tesseract where it rereads).", "",
        "auto reread with tesseract: " + (", ".join(n for n, r in routes.items() if r == "tesseract") or "none"), "",
        "Failed cases:", "\n".join(failed) or "- none", ""])
    RESULTS.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
