/**
 * Big outputs and everyone else: while one session's cell prints 10 MB and displays a 5 MP
 * picture (a 20 MB base64 PNG), another session runs trivial cells (`x=1`) back to back through
 * the same server core. Printed beside each other from one run: those cells' latency on a quiet
 * server (the baseline) and during the big outputs, the server's event-loop delay, and where
 * the main thread's time goes (recording the cell for the notebook export, decoding the PNG).
 * Target: p99 during the big outputs ≤ 50 ms.
 *
 *   npm run bench:bigout   BENCH_BIG_CELLS=3 BENCH_BIG_PARTS=both|picture|stdout
 */
import os from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { recordCell } from "@/lib/engines/kernels/cell-record";
import { createSession } from "@/lib/features/sessions/service";
import { startKernelCore } from "@/tests/helpers/kernel-core";
import { fmt, percentile, table } from "./lib/stats";

const BIG_CELLS = Number(process.env.BENCH_BIG_CELLS ?? 3);
const loadavg = () => os.loadavg().map((n) => n.toFixed(2)).join(" ");

/** Which big outputs the heavy cell makes: both (the target's scenario), or one, to see which costs what. */
const PARTS = process.env.BENCH_BIG_PARTS ?? "both";
const BIG_CELL = [
  "import sys, numpy as np",
  "from PIL import Image",
  ...(PARTS === "picture" ? [] : ["line = 'y' * 1023 + '\\n'", "for _ in range(10 * 1024): sys.stdout.write(line)"]),
  PARTS === "stdout" ? "None" : "Image.fromarray(np.random.default_rng(0).integers(0, 255, (1944, 2592, 3), dtype=np.uint8))",
].join("\n");

async function main() {
  console.log(`bench:bigout (${PARTS}) on ${os.cpus().length} cores; load average ${loadavg()}`);
  const k = await startKernelCore({ ARGUS_KERNEL_POOL: "2" });
  const quiet = (await createSession(k.core, null)).id;
  const heavy = (await createSession(k.core, null)).id;
  await k.kernels.execute(quiet, "x=1");
  await k.kernels.execute(heavy, "x=1");

  const quietLat: number[] = [];
  for (let i = 0; i < 100; i++) {
    const t0 = performance.now();
    await k.kernels.execute(quiet, "x=1");
    quietLat.push(performance.now() - t0);
  }

  const busyLat: number[] = [];
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  let bigMs = 0;
  let recordMs = 0;
  let pngChars = 0;
  for (let i = 0; i < BIG_CELLS; i++) {
    let streaming = true;
    const big = (async () => {
      const t0 = performance.now();
      const out = await k.kernels.execute(heavy, BIG_CELL, { timeoutMs: 120_000 });
      bigMs += performance.now() - t0;
      pngChars = out.results[0]?.data["image/png"]?.length ?? 0;
      streaming = false;
      // What recording one such cell for the notebook export costs the main thread (the
      // registry did it once already, inside the window measured above).
      const r0 = performance.now();
      recordCell({ db: k.core.db, dataDir: k.dir }, heavy, { kernelId: "bench", code: BIG_CELL, execution: out, executionCount: null });
      recordMs += performance.now() - r0;
    })();
    while (streaming) {
      const t0 = performance.now();
      await k.kernels.execute(quiet, "x=1");
      busyLat.push(performance.now() - t0);
    }
    await big;
  }
  loop.disable();
  await k.close();

  const row = (label: string, xs: number[]) => [label, xs.length, fmt(percentile(xs, 50), 1), fmt(percentile(xs, 99), 1), fmt(Math.max(...xs), 1)];
  console.log(`\n${BIG_CELLS} big cells (${PARTS === "both" ? "10 MB stdout + a 5 MP PNG" : PARTS === "picture" ? "a 5 MP PNG" : "10 MB stdout"}, ${(pngChars / 1e6).toFixed(1)} MB base64), ${fmt(bigMs / BIG_CELLS, 0)} ms each; another session's x=1:`);
  console.log(table([["condition", "cells", "p50 ms", "p99 ms", "max ms"], row("quiet (baseline)", quietLat), row("during the big outputs", busyLat)]));
  console.log(`server event-loop delay during the big outputs: p50 ${fmt(loop.percentile(50) / 1e6, 1)} ms, p99 ${fmt(loop.percentile(99) / 1e6, 1)} ms, max ${fmt(loop.max / 1e6, 1)} ms`);
  console.log(`recording one big cell for the notebook export (its synchronous part): ${fmt(recordMs / BIG_CELLS, 1)} ms`);
  const p99 = percentile(busyLat, 99);
  console.log(`target p99 ≤ 50 ms: ${fmt(p99, 1)} ms — ${p99 <= 50 ? "MET" : "MISSED"}; load average ${loadavg()}`);
  process.exit(0);
}

void main();
