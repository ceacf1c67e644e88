"""Baseline for bench/kernel-roundtrip.ts: trivial-cell round trips through raw
jupyter_client over ZeroMQ (no jupyter-server, no websocket, no sandbox).

Usage: raw_jupyter_client.py N   -> prints one JSON line {"latencies_ms": [...]}
A round trip is execute_request -> execute_reply and the kernel back to idle,
the same completion rule Argus's registry uses.
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
        latencies = []
        try:
            for i in range(n + 5):
                t0 = time.perf_counter()
                msg_id = kc.execute("x=1")
                replied = idle = False
                while not replied:
                    m = kc.get_shell_msg(timeout=10)
                    replied = m["parent_header"].get("msg_id") == msg_id
                while not idle:
                    m = kc.get_iopub_msg(timeout=10)
                    idle = (m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "status"
                            and m["content"]["execution_state"] == "idle")
                if i >= 5:  # the first few warm the kernel up
                    latencies.append((time.perf_counter() - t0) * 1000)
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=True)
        print(json.dumps({"latencies_ms": latencies}))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
