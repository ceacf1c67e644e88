/**
 * Kernel benchmark (issue: kernel registry). Prints, side by side in one run:
 *  - trivial-cell (`x=1`) round trip through Argus's registry (@jupyterlab/services
 *    → jupyter-server → sandboxed kernel) vs raw jupyter_client over ZeroMQ;
 *  - a session's first kernel acquisition with the pool warm vs a cold start;
 *  - another session's trivial cells while one session streams 10 MB of stdout
 *    and a 5 MP PNG, vs the same cells on a quiet server;
 *  - memory (RSS and PSS) per idle kernel.
 *
 *   npm run bench:kernels
 */
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { createSession } from "@/lib/features/sessions/service";
import { startKernelCore } from "@/tests/helpers/kernel-core";
import { fmt, percentile, table } from "./lib/stats";

const N = 200;
const stats = (xs: number[]) => ({ p50: percentile(xs, 50), p99: percentile(xs, 99), mean: xs.reduce((a, b) => a + b, 0) / xs.length });

function rawJupyterClient(n: number): { reply: number[]; idle: number[] } {
  const run = spawnSync("/usr/bin/python3", [path.join(import.meta.dirname, "raw_jupyter_client.py"), String(n)], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`raw jupyter_client baseline failed: ${run.stderr}`);
  const out = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as { reply_ms: number[]; idle_ms: number[] };
  return { reply: out.reply_ms, idle: out.idle_ms };
}

const read = (file: string) => {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
};

/**
 * RSS and PSS (kB) of each live kernel's Python process. Inside the sandbox a
 * kernel's command line still names its own connection file, kernel-<id>.json,
 * so match on the ids jupyter-server reports as running.
 */
function kernelMemory(kernelIds: string[]): { rss: number; pss: number }[] {
  const out: { rss: number; pss: number }[] = [];
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    const cmd = read(`/proc/${pid}/cmdline`);
    // bwrap's own processes carry the same arguments; keep the Python itself.
    if (!/python[\d.]*$/.test(cmd.split("\0")[0] ?? "") || !cmd.includes("ipykernel_launcher")) continue;
    if (!kernelIds.some((id) => cmd.includes(`kernel-${id}.json`))) continue;
    const rss = Number(/VmRSS:\s+(\d+)/.exec(read(`/proc/${pid}/status`))?.[1] ?? 0);
    const pss = Number(/Pss:\s+(\d+)/.exec(read(`/proc/${pid}/smaps_rollup`))?.[1] ?? 0);
    if (rss > 0) out.push({ rss, pss });
  }
  return out;
}

async function main() {
  console.log(`kernel benchmark on ${execFileSync("nproc").toString().trim()} cores`);

  // 1. Round trip: raw jupyter_client first, then Argus, in the same run.
  const rawRuns = rawJupyterClient(N);
  const rawReply = stats(rawRuns.reply);
  const raw = stats(rawRuns.idle);
  const k = await startKernelCore({ ARGUS_KERNEL_POOL: "2" });
  const s = await createSession(k.core, null);
  await k.kernels.acquire(s.id);
  for (let i = 0; i < 5; i++) await k.kernels.execute(s.id, "x=1");
  const argusLat: number[] = [];
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    await k.kernels.execute(s.id, "x=1");
    argusLat.push(performance.now() - t0);
  }
  const argus = stats(argusLat);
  // Until the execute_reply only, on the same kernel connection, for the other rule.
  const { kernel } = await k.kernels.acquire(s.id);
  const replyLat: number[] = [];
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    const future = kernel.connection.requestExecute({ code: "x=1" });
    const replied = new Promise<number>((resolve) => (future.onReply = () => resolve(performance.now() - t0)));
    replyLat.push(await replied);
    await future.done;
    future.dispose();
  }
  const argusReply = stats(replyLat);

  // 2. First acquisition: warm pool (wait for refill between sessions) vs cold.
  const warm: number[] = [];
  for (let i = 0; i < 10; i++) {
    while (k.kernels.stats().pooled < 1) await new Promise((r) => setTimeout(r, 20));
    const sid = (await createSession(k.core, null)).id;
    const t0 = performance.now();
    await k.kernels.acquire(sid);
    warm.push(performance.now() - t0);
    await k.kernels.release(sid);
  }
  const coldCore = await startKernelCore({ ARGUS_KERNEL_POOL: "0" });
  const cold: number[] = [];
  for (let i = 0; i < 3; i++) {
    const sid = (await createSession(coldCore.core, null)).id;
    const t0 = performance.now();
    await coldCore.kernels.acquire(sid);
    cold.push(performance.now() - t0);
    await coldCore.kernels.release(sid);
  }
  await coldCore.close();

  // 3. Big outputs in one session while another runs trivial cells.
  const heavy = (await createSession(k.core, null)).id;
  await k.kernels.acquire(heavy);
  const quietLat: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t0 = performance.now();
    await k.kernels.execute(s.id, "x=1");
    quietLat.push(performance.now() - t0);
  }
  const busyLat: number[] = [];
  let streaming = true;
  const big = (async () => {
    const t0 = performance.now();
    const out = await k.kernels.execute(
      heavy,
      [
        "import sys, numpy as np",
        "from PIL import Image",
        "line = 'y' * 1023 + '\\n'",
        "for _ in range(10 * 1024): sys.stdout.write(line)",
        "Image.fromarray(np.random.default_rng(0).integers(0, 255, (1944, 2592, 3), dtype=np.uint8))",
      ].join("\n"),
      { timeoutMs: 120_000 },
    );
    streaming = false;
    return { ms: performance.now() - t0, stdout: out.stdout.length, png: out.results[0]?.data["image/png"]?.length ?? 0 };
  })();
  while (streaming) {
    const t0 = performance.now();
    await k.kernels.execute(s.id, "x=1");
    busyLat.push(performance.now() - t0);
  }
  const bigResult = await big;

  // 4. Memory per idle kernel (the pool's and the sessions').
  await new Promise((r) => setTimeout(r, 500));
  const ep = k.core.jupyter.endpoint()!;
  const running = (await (await fetch(`${ep.baseUrl}/api/kernels`, { headers: { authorization: `token ${ep.token}` } })).json()) as { id: string }[];
  const mem = kernelMemory(running.map((x) => x.id));
  await k.close();

  const r = (n: number) => fmt(n, 2);
  console.log("\nTrivial cell (x=1) round trip, ms");
  console.log(
    table([
      ["completion rule / path", "p50", "p99", "mean", "ratio p50 vs raw"],
      ["until idle: raw jupyter_client execute_interactive (ZeroMQ, no server)", r(raw.p50), r(raw.p99), r(raw.mean), "1.00"],
      ["until idle: Argus registry.execute (services → jupyter-server → bwrap kernel)", r(argus.p50), r(argus.p99), r(argus.mean), fmt(argus.p50 / raw.p50, 2)],
      ["until reply: raw jupyter_client execute(reply=True)", r(rawReply.p50), r(rawReply.p99), r(rawReply.mean), "1.00"],
      ["until reply: Argus's kernel connection (same path as above)", r(argusReply.p50), r(argusReply.p99), r(argusReply.mean), fmt(argusReply.p50 / rawReply.p50, 2)],
    ]),
  );
  const w = stats(warm);
  const c = stats(cold);
  console.log("\nFirst kernel acquisition for a new session, ms");
  console.log(table([["pool", "p50", "max"], ["warm (pool of 2)", r(w.p50), r(Math.max(...warm))], ["cold (pool of 0)", r(c.p50), r(Math.max(...cold))]]));
  const q = stats(quietLat);
  const b = stats(busyLat);
  console.log(`\nAnother session's trivial cells while one streams 10 MB stdout + a 5 MP PNG (took ${fmt(bigResult.ms, 0)} ms; kept ${bigResult.stdout} chars of stdout, PNG ${(bigResult.png / 1e6).toFixed(1)} MB base64)`);
  console.log(table([["condition", "cells", "p50 ms", "p99 ms"], ["quiet", quietLat.length, r(q.p50), r(q.p99)], ["during the big output", busyLat.length, r(b.p50), r(b.p99)]]));
  const rss = mem.map((m) => m.rss / 1024);
  const pss = mem.map((m) => m.pss / 1024);
  console.log(`\nIdle kernel memory over ${mem.length} of ${running.length} running kernels: RSS mean ${fmt(rss.reduce((a, x) => a + x, 0) / rss.length, 1)} MB, PSS mean ${fmt(pss.reduce((a, x) => a + x, 0) / pss.length, 1)} MB`);
  process.exit(0);
}

void main();
