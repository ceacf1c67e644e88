"""The real-photo table: classical and neural tools side by side on the same photos.

Every family of the real-photo set (python/tests/real_photos.py: circles ...
people; python/tests/real_photos_everyday.py: objects by class, scene text,
people counts, faces, poses) is run with the kernel's classical tools, locally,
and, when an Argus server is given, with its neural tools over HTTP
(POST /api/tools/:name, multipart `image` + `params`, Bearer token). One row
per family: cases, passed and seconds per call for each side. Both sides are
judged by the same rule, case by case. The table and every failed case go to
stdout and to bench/results/vision-real-photos.md, with the machine and its
load average.

    /usr/bin/python3 bench/vision_tools_accuracy.py --real [--argus-url URL --token TOKEN]
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

import cv2
import numpy as np

from tests import real_photos, real_photos_everyday

RESULTS = Path(__file__).resolve().parent / "results" / "vision-real-photos.md"
HTTP_TIMEOUT_SECONDS = 300.0

# What answers each family on each side ("" = no such tool).
CLASSICAL = {
    "circles": "detect_circles", "counting": "count_objects", "colour": "segment_color, dominant_colors",
    "ocr": "read_text (tesseract)", "template": "find_template", "people": "detect_people (HOG)",
    "objects": "count_objects / detect_people / detect_cat_faces", "scene text": "read_text (tesseract)",
    "people count": "detect_people (HOG)", "faces": "detect_faces (Haar)", "poses": "",
}
NEURAL = {"ocr": "read_text", "people": "detect_people", "objects": "detect_objects", "scene text": "read_text",
          "people count": "detect_people", "faces": "detect_faces", "poses": "detect_poses"}


class Argus:
    """The neural tools of a running Argus, over HTTP (standard library only)."""

    def __init__(self, url: str, token: str) -> None:
        self.url, self.token = url.rstrip("/"), token

    def call(self, name: str, pixels: np.ndarray, params: Optional[Dict[str, Any]] = None) -> Any:
        ok, png = cv2.imencode(".png", cv2.cvtColor(pixels, cv2.COLOR_RGB2BGR))
        if not ok:
            raise ValueError(f"{name}: could not encode the photo as PNG")
        boundary = f"bench-{uuid.uuid4().hex}"
        body = (f'--{boundary}\r\nContent-Disposition: form-data; name="params"\r\n\r\n{json.dumps(params or {})}\r\n'
                f'--{boundary}\r\nContent-Disposition: form-data; name="image"; filename="photo.png"\r\n'
                f"Content-Type: image/png\r\n\r\n").encode() + png.tobytes() + f"\r\n--{boundary}--\r\n".encode()
        request = urllib.request.Request(f"{self.url}/api/tools/{name}", data=body, method="POST", headers={
            "Authorization": f"Bearer {self.token}", "Content-Type": f"multipart/form-data; boundary={boundary}"})
        for _ in range(60):  # a full inference queue answers 429: wait it out
            try:
                with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT_SECONDS) as response:
                    return json.loads(response.read())["result"]
            except urllib.error.HTTPError as error:
                text = error.read()[:300].decode("utf-8", "replace")
                if error.code != 429:
                    raise RuntimeError(f"{name}: HTTP {error.code} {text}") from None
                time.sleep(float(error.headers.get("Retry-After") or 1))
        raise RuntimeError(f"{name}: the server stayed busy")

    def warm_up(self) -> None:
        """One call per neural tool first, so model loading is not counted as a call."""
        pixels = real_photos.photo("smarties.png")
        for name in sorted(set(NEURAL.values())):
            self.call(name, pixels)


Outcome = Tuple[Optional[bool], float, str]  # passed (None: no tool), seconds, detail


def _timed(run: Callable[[], Tuple[bool, str]]) -> Outcome:
    start = time.perf_counter()
    try:
        ok, detail = run()
    except real_photos_everyday.NoTool as missing:
        return None, 0.0, str(missing)
    except Exception as error:  # a crash is a failed case, not a crashed bench
        ok, detail = False, f"{type(error).__name__}: {error}"
    return ok, time.perf_counter() - start, detail


def _neural_twins(argus: Argus) -> Dict[str, Callable[[np.ndarray], Any]]:
    def text(pixels: np.ndarray) -> str:
        result = argus.call("read_text", pixels)
        return result["text"] if isinstance(result, dict) else str(result)

    return {"read_text": text, "detect_people": lambda pixels: argus.call("detect_people", pixels)}


def run_cases(argus: Optional[Argus]) -> List[Tuple[str, str, Outcome, Optional[Outcome]]]:
    """(family, case name, classical outcome, neural outcome or None when not measured)."""
    rows = []
    for family, members in real_photos.CASES.items():
        for case in members:
            rows.append((family, case.__name__, _timed(case), None))
    if argus is not None:
        classical_tools = dict(real_photos.TOOLS)
        real_photos.TOOLS.update(_neural_twins(argus))
        try:
            for index, (family, name, classical, _) in enumerate(rows):
                if family in NEURAL:
                    case = next(c for c in real_photos.CASES[family] if c.__name__ == name)
                    rows[index] = (family, name, classical, _timed(case))
        finally:
            real_photos.TOOLS.update(classical_tools)
    for case in real_photos_everyday.CASES:
        neural = None if argus is None else _timed(lambda case=case: case.run_neural(argus.call))
        rows.append((case.family, case.name, _timed(case.run_classical), neural))
    return rows


def _side(outcomes: List[Outcome]) -> Tuple[str, str]:
    measured = [o for o in outcomes if o[0] is not None]
    if not measured:
        return "no tool", "—"
    passed = sum(1 for o in measured if o[0])
    return f"{passed}/{len(measured)} ({passed / len(measured):.0%})", f"{statistics.mean(o[1] for o in measured):.2f}"


def table(rows: List[Tuple[str, str, Outcome, Optional[Outcome]]], argus_given: bool) -> str:
    lines = ["| family | classical tool | neural tool | cases | classical passed | s/call | neural passed | s/call |",
             "|---|---|---|---|---|---|---|---|"]
    families = list(dict.fromkeys(r[0] for r in rows))
    for family in families:
        members = [r for r in rows if r[0] == family]
        classical, c_seconds = _side([r[2] for r in members])
        if family not in NEURAL:
            neural, n_seconds = "no neural tool", "—"
        elif not argus_given:
            neural, n_seconds = "not measured (no Argus)", "—"
        else:
            neural, n_seconds = _side([r[3] for r in members if r[3] is not None])
        lines.append(f"| {family} | {CLASSICAL.get(family) or '—'} | {NEURAL.get(family, '—')} | {len(members)} "
                     f"| {classical} | {c_seconds} | {neural} | {n_seconds} |")
    return "\n".join(lines)


def failures(rows: List[Tuple[str, str, Outcome, Optional[Outcome]]]) -> str:
    out = []
    for family, name, classical, neural in rows:
        for side, outcome in (("classical", classical), ("neural", neural)):
            if outcome is not None and outcome[0] is False:
                out.append(f"- {side} {family}/{name}: {outcome[2]}")
    return "\n".join(out) or "- none"


# The neural tools whose box threshold the sweep varies, and the everyday family each answers.
SWEPT = {"detect_objects": "objects", "detect_people": "people count", "detect_faces": "faces", "detect_poses": "poses"}
THRESHOLDS = (0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5)


def sweep(argus: Argus) -> str:
    """Passed cases per box threshold, for each neural detector on its everyday family.

    One call per case at the lowest threshold; the higher ones keep the boxes
    whose score reaches them (what the server's own filter does).
    """
    lines = ["| tool | family | cases | " + " | ".join(f"{t:g}" for t in THRESHOLDS) + " |",
             "|---|---|---|" + "---|" * len(THRESHOLDS)]
    for tool, family in SWEPT.items():
        cases = real_photos_everyday.FAMILIES[family]
        passed = dict.fromkeys(THRESHOLDS, 0)
        for case in cases:
            pixels = real_photos.photo(case.photo)
            found = argus.call(tool, pixels, {"box_threshold": THRESHOLDS[0]})
            for t in THRESHOLDS:
                kept = [d for d in found if d["score"] >= t]
                passed[t] += int(case.judge(case.neural(lambda name, px, kept=kept: kept, pixels))[0])
        lines.append(f"| {tool} | {family} | {len(cases)} | " + " | ".join(str(passed[t]) for t in THRESHOLDS) + " |")
    return "\n".join(lines)


def machine() -> str:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    return f"{os.cpu_count()} cores ({cpu}), {platform.system()} {platform.release()}, Python {platform.python_version()}"


def main(argus_url: Optional[str], token: Optional[str], out: Path = RESULTS, with_sweep: bool = False) -> str:
    argus = Argus(argus_url, token or "") if argus_url else None
    load_before = os.getloadavg()
    if argus is not None:
        argus.warm_up()
    started = time.time()
    rows = run_cases(argus)
    swept = sweep(argus) if argus is not None and with_sweep else ""
    load_after = os.getloadavg()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=Path(__file__).parent).stdout.strip()
    text = "\n".join([
        "# Vision tools on real photos: classical and neural side by side", "",
        f"Run {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(started))} at commit {commit}, "
        f"{time.time() - started:.0f} s; machine: {machine()}; load average "
        f"{load_before[0]:.1f} before, {load_after[0]:.1f} after (1-minute).",
        f"Neural side: {'Argus at ' + argus_url if argus else 'not measured (no --argus-url given)'}.", "",
        table(rows, argus is not None), "",
        "Cases: python/tests/real_photos.py and python/tests/real_photos_everyday.py (truth by looking, tolerance "
        "rules in the latter's docstring); photos and licences: python/tests/photos/SOURCES.md. Default parameters "
        "everywhere. s/call: mean wall time of one case (photo loading included; neural: PNG upload and HTTP "
        "included, after one warm-up call per tool). 'no tool': that side has no tool for the question (not counted "
        "as a failure).", "",
        *([] if not swept else [
            "Box thresholds (neural detectors on their everyday family, cases passed; the default is the engine's, "
            "0.3 for objects, people and poses, 0.5 for faces). Scored here only: no default was changed by this run.",
            "", swept, ""]),
        "Failed cases:", failures(rows), ""])
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    print(text)
    return text
