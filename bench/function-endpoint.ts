/**
 * The HTTP run endpoint called from a script in a loop (issue #15): images per second and the
 * latency of one call, through the real server (multipart image in, JSON answer out), with kernels
 * kept warm between calls (the default, ARGUS_FUNCTION_WARM_KERNELS=2) beside the baseline of the
 * same run, a fresh kernel per call (ARGUS_FUNCTION_WARM_KERNELS=0). Both servers preload the
 * vision stack into their pooled kernels, as `npm start` does.
 *
 *   npm run bench:endpoint            (N=40 calls by default; BENCH_N to change)
 */
import { execFileSync } from "node:child_process";
import os from "node:os";
import { openDatabase } from "@/lib/engines/db/database";
import { addFunctionVersion } from "@/lib/engines/db/functions";
import { api, startArgus } from "@/tests/helpers/argus-server";
import { coinImage } from "@/tests/helpers/coin-images";
import { tempDir } from "@/tests/helpers/temp-dir";
import { COUNT, FUNCTION_LABEL } from "./lib/coin-functions";
import { fmt, percentile, table } from "./lib/stats";

const N = Number(process.env.BENCH_N ?? 40);
/** Fresh kernels are slow: fewer calls give the same figure. */
const FRESH_N = Math.min(N, 12);

interface Figures {
  calls: number;
  seconds: number;
  p50: number;
  p90: number;
}

async function measure(warmKernels: string, calls: number, images: Uint8Array[]): Promise<Figures> {
  const scratch = tempDir("argus-bench-endpoint-");
  const server = await startArgus({
    dataDir: scratch.dir,
    env: { ARGUS_JUPYTER: "auto", ARGUS_KERNEL_PRELOAD: "vision", ARGUS_KERNEL_POOL: "2", ARGUS_FUNCTION_WARM_KERNELS: warmKernels },
    timeoutMs: 120_000,
  });
  try {
    const call = api(server.url);
    const s = (await call("POST", "/api/sessions")).json as { id: string; token: string };
    const db = await openDatabase(server.database);
    try {
      await addFunctionVersion(db, { sessionId: s.id, name: "count_coins", code: COUNT, test: "", runId: null, testOutput: "", success: true, now: new Date().toISOString() });
    } finally {
      await db.close();
    }
    const run = async (i: number) => {
      const form = new FormData();
      form.set("file", new Blob([images[i % images.length]! as BlobPart], { type: "image/png" }), `c${i}.png`);
      const started = performance.now();
      const res = await call("POST", `/api/sessions/${s.id}/functions/count_coins/run`, { token: s.token, raw: form });
      if (res.status !== 200) throw new Error(`call ${i}: ${res.status} ${res.text.slice(0, 300)}`);
      return performance.now() - started;
    };
    // The pool fills while the server starts; one call first, as a script's first call would.
    await run(0);
    const latencies: number[] = [];
    const started = performance.now();
    for (let i = 1; i <= calls; i++) latencies.push(await run(i));
    const seconds = (performance.now() - started) / 1000;
    return { calls, seconds, p50: percentile(latencies, 50), p90: percentile(latencies, 90) };
  } finally {
    await server.kill();
    scratch.cleanup();
  }
}

async function main() {
  console.log(`run endpoint benchmark on ${execFileSync("nproc").toString().trim()} cores, ${FUNCTION_LABEL} function, load ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  const images = await Promise.all(Array.from({ length: 20 }, (_, i) => coinImage(1 + i, i)));
  const fresh = await measure("0", FRESH_N, images);
  const warm = await measure("2", N, images);
  const row = (label: string, f: Figures) => [label, String(f.calls), fmt(f.calls / f.seconds), fmt(f.p50, 0), fmt(f.p90, 0)];
  console.log(
    table([
      ["way", "calls", "calls/s", "p50 ms", "p90 ms"],
      row("fresh kernel per call (baseline, WARM_KERNELS=0)", fresh),
      row("warm kernel kept for the function (default)", warm),
    ]),
  );
  console.log(`speed-up: ${fmt(warm.calls / warm.seconds / (fresh.calls / fresh.seconds), 1)}× calls/s; load after ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
