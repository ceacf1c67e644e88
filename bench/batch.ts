/**
 * Batch throughput (issue #15): images per second of a 200-image batch run
 * (ARGUS_BATCH_PARALLEL lanes, items sent in adaptive chunks to isolated
 * kernels: files written in, function called on each, results made JSON-safe,
 * overlays stored, rows written and published) against the baseline from the same run: a plain
 * Python loop calling the same function over the same files in one kernel.
 * Target: batch ≥ 0.8× the loop on 2 cores. Intake (validating each file like
 * an upload) happens before the batch starts and is timed apart.
 *
 *   npm run bench:batch   BENCH_IMAGES=200
 */
import os from "node:os";
import path from "node:path";
import { writeFile } from "node:fs/promises";
import { intakeItems } from "@/lib/features/batches/batch-intake";
import { createSession } from "@/lib/features/sessions/service";
import { COUNT_COINS_CODE, coinImage } from "@/tests/helpers/coin-images";
import { startKernelCore } from "@/tests/helpers/kernel-core";

const N = Number(process.env.BENCH_IMAGES ?? 200);
const PARALLEL = process.env.ARGUS_BATCH_PARALLEL ?? "2";
const loadavg = () => os.loadavg().map((n) => n.toFixed(2)).join(" ");

async function main() {
  console.log(`bench:batch — ${N} images, ${PARALLEL} lanes, ${os.cpus().length} cores; load average ${loadavg()}`);
  const k = await startKernelCore({ ARGUS_KERNEL_POOL: "2", ARGUS_KERNEL_PRELOAD: "vision", ARGUS_BATCH_PARALLEL: PARALLEL });
  try {
    const session = await createSession(k.core, null);
    const images = await Promise.all(Array.from({ length: N }, (_, i) => coinImage(1 + (i % 17), i + 1)));
    const files = images.map((bytes, i) => ({ filename: `coins-${i}.png`, bytes: new Uint8Array(bytes) }));

    // Baseline: one kernel, the function defined once, a Python loop over the files.
    const loopSeconds = await k.kernels.isolated(null, async (kernel) => {
      await Promise.all(files.map((f) => writeFile(path.join(kernel.workspace, f.filename), f.bytes)));
      const names = JSON.stringify(files.map((f) => f.filename));
      const setup = await kernel.execute(`${COUNT_COINS_CODE}\n_names = ${names}\ncount_coins(_names[0])`, { timeoutMs: 120_000 });
      if (setup.execution.error) throw new Error(`baseline setup failed: ${setup.execution.error.value}`);
      const run = await kernel.execute(
        "import time\n_t = time.perf_counter()\n_counts = [count_coins(n)['count'] for n in _names]\nprint(time.perf_counter() - _t)",
        { timeoutMs: 600_000 },
      );
      if (run.execution.error) throw new Error(`baseline failed: ${run.execution.error.value}`);
      return Number(run.execution.stdout.trim());
    });
    const loopRate = N / loopSeconds;
    console.log(`baseline  python loop, 1 kernel : ${loopSeconds.toFixed(2)} s, ${loopRate.toFixed(1)} images/s; load average ${loadavg()}`);

    const t0 = performance.now();
    const items = await intakeItems(k.core, session.id, { kind: "files", files, zips: [] });
    const intakeSeconds = (performance.now() - t0) / 1000;
    console.log(`intake    validation of ${N} files : ${intakeSeconds.toFixed(2)} s (before the batch starts)`);

    const t1 = performance.now();
    const cpu0 = process.cpuUsage();
    const batch = await k.core.batches.create(session.id, { name: "count_coins", version: 1, code: COUNT_COINS_CODE }, items);
    await k.core.batches.settled(batch.id);
    const batchSeconds = (performance.now() - t1) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const nodeCpuMs = (cpu.user + cpu.system) / 1000 / N;
    const view = (await k.core.batches.view(batch.id))!;
    const batchRate = N / batchSeconds;
    console.log(`batch     ${PARALLEL} lanes               : ${batchSeconds.toFixed(2)} s, ${batchRate.toFixed(1)} images/s (done ${view.batch.counts.done}, failed ${view.batch.counts.failed}); load average ${loadavg()}`);
    console.log(`          Argus's own CPU per item : ${nodeCpuMs.toFixed(2)} ms (this process: runner, overlays, database, events)`);
    const ratio = batchRate / loopRate;
    console.log(`ratio     batch / loop            : ${ratio.toFixed(2)}× (target ≥ 0.8×) ${ratio >= 0.8 ? "MET" : "NOT MET"}`);
  } finally {
    await k.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
