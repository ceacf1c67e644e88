"""The floor for bench/run-overhead.ts: how long a run's cells take inside a kernel.

Usage: cell_floor.py < {"cells": [code, ...], "files": {name: path}, "repeats": N, "package_dir": dir}
  -> prints one JSON line {"first_ms": [...], "median_ms": [...]}

A raw jupyter_client kernel (no server, no websocket, no sandbox) with the
Argus package and the vision stack imported, like a preloaded Argus kernel,
and the run's files in its working directory. Each cell is timed inside the
kernel with perf_counter around its own code, so transport and scheduling
outside the kernel are not counted: this is the cells' own execution time.
"""
import json
import os
import shutil
import statistics
import sys
import tempfile

from jupyter_client.manager import KernelManager

TIMED = (
    "import time as __bench_time\n"
    "__bench_t0 = __bench_time.perf_counter()\n"
    "exec(compile({code!r}, '<cell>', 'exec'), globals())\n"
    "print('__BENCH_CELL_MS', (__bench_time.perf_counter() - __bench_t0) * 1000)\n"
)


def run_timed(kc, code: str) -> float:
    out = []

    def hook(msg):
        if msg["msg_type"] == "stream":
            out.append(msg["content"]["text"])
        elif msg["msg_type"] == "error":
            out.append("ERROR " + msg["content"]["ename"] + ": " + msg["content"]["evalue"])

    kc.execute_interactive(TIMED.format(code=code), timeout=120, output_hook=hook)
    text = "".join(out)
    for line in text.splitlines():
        if line.startswith("__BENCH_CELL_MS "):
            return float(line.split()[1])
    raise RuntimeError(f"the cell did not finish: {text[-500:]}")


def main() -> None:
    job = json.load(sys.stdin)
    with tempfile.TemporaryDirectory() as tmp:
        spec_dir = os.path.join(tmp, "kernels", "bench-floor")
        os.makedirs(spec_dir)
        with open(os.path.join(spec_dir, "kernel.json"), "w") as f:
            json.dump({"argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                       "display_name": "bench", "language": "python",
                       "env": {"PYTHONPATH": job["package_dir"], "MPLBACKEND": "agg"}}, f)
        work = os.path.join(tmp, "work")
        os.makedirs(work)
        for name, path in job["files"].items():
            shutil.copyfile(path, os.path.join(work, name))
        os.environ["JUPYTER_PATH"] = tmp
        km = KernelManager(kernel_name="bench-floor")
        km.start_kernel(cwd=work)
        kc = km.client()
        kc.start_channels()
        kc.wait_for_ready(timeout=60)
        try:
            kc.execute_interactive("from argus import *\nimport argus.preload\n_ = argus.preload.vision()", timeout=120, output_hook=lambda msg: None)
            first, median = [], []
            for code in job["cells"]:
                times = [run_timed(kc, code) for _ in range(job["repeats"] + 1)]
                first.append(times[0])
                median.append(statistics.median(times[1:]))
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=True)
        print(json.dumps({"first_ms": first, "median_ms": median}))


if __name__ == "__main__":
    main()
