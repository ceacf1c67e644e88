"""Baseline for bench/kernel-roundtrip.ts: trivial-cell round trips through raw
jupyter_client over ZeroMQ (no jupyter-server, no websocket, no sandbox).

Usage: raw_jupyter_client.py N
  -> prints one JSON line {"reply_ms": [...], "idle_ms": [...]}
Two completion rules, each with jupyter_client's own helper: until the
execute_reply (`execute(reply=True)`), and until the kernel is idle again with
all output in (`execute_interactive`), which is the rule Argus's registry uses.
"""
import json
import os
import sys
import tempfile
import time

from jupyter_client.manager import KernelManager


def main(n: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        spec_dir = os.path.join(tmp, "kernels", "bench-plain")
        os.makedirs(spec_dir)
        with open(os.path.join(spec_dir, "kernel.json"), "w") as f:
            json.dump({"argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                       "display_name": "bench", "language": "python"}, f)
        os.environ["JUPYTER_PATH"] = tmp
        km = KernelManager(kernel_name="bench-plain")
        km.start_kernel()
        kc = km.client()
        kc.start_channels()
        kc.wait_for_ready(timeout=30)
        reply_ms, idle_ms = [], []
        try:
            for i in range(n + 5):
                t0 = time.perf_counter()
                kc.execute("x=1", reply=True, timeout=10)
                if i >= 5:  # the first few warm the kernel up
                    reply_ms.append((time.perf_counter() - t0) * 1000)
            for i in range(n + 5):
                t0 = time.perf_counter()
                kc.execute_interactive("x=1", timeout=10)
                if i >= 5:
                    idle_ms.append((time.perf_counter() - t0) * 1000)
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=True)
        print(json.dumps({"reply_ms": reply_ms, "idle_ms": idle_ms}))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
