"""Should detect_faces mix Haar's boxes into the neural detector's? On the faces family of the
real-photo set (python/tests/real_photos_everyday.py), counted four ways in one run: Haar alone,
neural alone (the server's model, default threshold 0.5), neural plus every Haar box no neural box
overlaps, and neural plus only the small ones of those (side < SMALL px, the tiny faces the issue
asks about). Writes bench/results/faces-haar-merge.md with the machine and load average.

    cd python && ARGUS_URL=http://127.0.0.1:3000 ARGUS_TOKEN=<token> PYTHONPATH=. /usr/bin/python3 ../bench/faces_haar_merge.py
"""

from __future__ import annotations

import importlib
import os
import sys
import time
from pathlib import Path
from typing import List

import argus
from tests import real_photos, real_photos_everyday

sys.path.insert(0, str(Path(__file__).resolve().parent))
from real_photo_table import machine  # noqa: E402

neural = importlib.import_module("argus.tools.neural")
RESULTS = Path(__file__).resolve().parent / "results" / "faces-haar-merge.md"
SMALL = 48


def _overlaps(box: List[float], others: List[List[float]]) -> bool:
    return any(min(box[2], o[2]) > max(box[0], o[0]) and min(box[3], o[3]) > max(box[1], o[1]) for o in others)


def main() -> None:
    load_before = os.getloadavg()
    started = time.time()
    ways = ("Haar", "neural", "neural + Haar", f"neural + Haar < {SMALL} px")
    passed = dict.fromkeys(ways, 0)
    rows = []
    for case in real_photos_everyday.FAMILIES["faces"]:
        pixels = real_photos.photo(case.photo)
        found = [d["bbox"] for d in neural.call_tool("detect_faces", pixels)]
        haar = [d["bbox"] for d in argus.detect_faces(pixels, method="classical")]
        extra = [b for b in haar if not _overlaps(b, found)]
        small = [b for b in extra if max(b[2] - b[0], b[3] - b[1]) < SMALL]
        counts = dict(zip(ways, (len(haar), len(found), len(found) + len(extra), len(found) + len(small))))
        verdicts = {way: case.judge(n) for way, n in counts.items()}
        for way, (ok, _) in verdicts.items():
            passed[way] += int(ok)
        rows.append(f"| {case.name} | " + " | ".join(f"{counts[w]}{'' if verdicts[w][0] else ' ✗'}" for w in ways)
                    + f" | {verdicts['Haar'][1].split('(')[1].rstrip(')')} |")
    n = len(rows)
    text = "\n".join([
        "# detect_faces: mixing Haar's boxes into the neural detector's?", "",
        f"Run {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(started))}, {time.time() - started:.0f} s; machine: "
        f"{machine()}; load average {load_before[0]:.1f} before, {os.getloadavg()[0]:.1f} after (1-minute). "
        f"Neural side: {os.environ.get('ARGUS_URL')}.", "",
        "| case | " + " | ".join(ways) + " | truth |", "|---|" + "---|" * (len(ways) + 1),
        *rows,
        "| passed | " + " | ".join(f"{passed[w]}/{n}" for w in ways) + " | |", "",
        "Faces found per case (✗: outside the truth). The baseline is Haar alone; detect_faces' default is the "
        "column that passes most without a merge rule unless a merge passes more.", ""])
    RESULTS.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
