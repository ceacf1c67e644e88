/**
 * Function runner benchmark (issue #15). Prints, in one run, images per second
 * of a count-coins function on generated coin images:
 *  - baseline: a plain Python loop calling the function in one kernel (one cell);
 *  - openFunctionRunner: one call per image in one reused isolated kernel
 *    (what a batch worker does), the image written into the workspace per call;
 *  - two such runners side by side (a batch's parallelism);
 *  - runFunction: one call per image, each in a fresh isolated kernel from the pool.
 *
 *   npm run bench:functions            (N=60 images by default; BENCH_N to change)
 */
import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { openFunctionRunner, runFunction } from "@/lib/features/functions/run-function";
import { coinImage } from "@/tests/helpers/coin-images";
import { startKernelCore } from "@/tests/helpers/kernel-core";
import { COUNT, FUNCTION_LABEL } from "./lib/coin-functions";
import { fmt, table } from "./lib/stats";

const N = Number(process.env.BENCH_N ?? 60);
const FRESH = Math.min(N, 15);

async function main() {
  console.log(`function runner benchmark on ${execFileSync("nproc").toString().trim()} cores, ${N} images, ${FUNCTION_LABEL} function`);
  const k = await startKernelCore({ ARGUS_KERNEL_POOL: "2", ARGUS_KERNEL_PRELOAD: "vision" });
  try {
    const sessionId = (await k.newSession()).id;
    const images = await Promise.all(Array.from({ length: N }, (_, i) => coinImage(1 + (i % 20), i)));
    const deps = { kernels: k.kernels, db: k.core.db, blobs: k.core.blobs };
    const fn = { sessionId, name: "count_coins", code: COUNT };

    // Baseline: the same function in a plain loop in one kernel, over the same files.
    const loop = await k.kernels.isolated(null, async (kernel) => {
      await Promise.all(images.map((bytes, i) => writeFile(path.join(kernel.workspace, `c${i}.png`), bytes)));
      await kernel.execute(`${COUNT}\ncount_coins('c0.png')`, { timeoutMs: 120_000 });
      const started = Date.now();
      const out = await kernel.execute(`print(sum(count_coins(f'c{i}.png') for i in range(${N})))`, { timeoutMs: 600_000 });
      if (out.execution.error) throw new Error(out.execution.error.value);
      return (Date.now() - started) / 1000;
    });

    const runner = openFunctionRunner(deps, fn);
    await runner.call({ name: "warm.png", bytes: images[0]! });
    let started = Date.now();
    for (let i = 0; i < N; i++) {
      const r = await runner.call({ name: `c${i}.png`, bytes: images[i]! });
      if (r.error) throw new Error(r.error.message);
    }
    const reused = (Date.now() - started) / 1000;
    await runner.close();

    // Two runners side by side (a batch's parallelism on 2 cores), each warmed first.
    const pair = [openFunctionRunner(deps, fn), openFunctionRunner(deps, fn)];
    await Promise.all(pair.map((r) => r.call({ name: "warm.png", bytes: images[0]! })));
    started = Date.now();
    await Promise.all(
      pair.map(async (r, w) => {
        for (let i = w; i < N; i += pair.length) {
          const out = await r.call({ name: `c${i}.png`, bytes: images[i]! });
          if (out.error) throw new Error(out.error.message);
        }
      }),
    );
    const parallel = (Date.now() - started) / 1000;
    await Promise.all(pair.map((r) => r.close()));

    started = Date.now();
    for (let i = 0; i < FRESH; i++) {
      const r = await runFunction(deps, fn, { name: `c${i}.png`, bytes: images[i]! });
      if (r.error) throw new Error(r.error.message);
    }
    const fresh = (Date.now() - started) / 1000;

    console.log(
      table([
        ["way", "images", "seconds", "images/s", "vs loop"],
        ["plain loop, one kernel (baseline)", String(N), fmt(loop), fmt(N / loop), "1.00×"],
        ["openFunctionRunner, one reused kernel", String(N), fmt(reused), fmt(N / reused), `${fmt(loop / reused)}×`],
        ["2 runners in parallel", String(N), fmt(parallel), fmt(N / parallel), `${fmt(loop / parallel)}×`],
        ["runFunction, fresh kernel per image", String(FRESH), fmt(fresh), fmt(FRESH / fresh), `${fmt(loop / N / (fresh / FRESH))}×`],
      ]),
    );
  } finally {
    await k.close();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
