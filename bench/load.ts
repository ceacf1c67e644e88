/**
 * Load and soak against the real server (production build, child process)
 * with real jupyter-server and sandboxed kernels; only the model is scripted.
 *
 *  - Load: 20 sessions at once, each a multi-turn run (conversation → planner
 *    with 3 numpy/cv2 cells → finalize → submit_plan → coder write_code/
 *    write_test in an isolated kernel → conversation), each with its own
 *    Socket.io client. Checks that every run finishes, that every client gets
 *    every message of its session once and in order (against the transcript
 *    from GET /api/sessions/:id) and nothing of another session. Beside it, the
 *    same run alone on the same server (the baseline).
 *  - Soak (a): 200 runs one after another in one session.
 *  - Soak (b): 200 sessions created, used (an upload and one run) and deleted.
 *    In both, runs are conversation replies and every 10th is a planner run
 *    with one cell (so the session kernel and the coder's isolated kernels
 *    come and go too). Both sample the server's RSS after every run and report
 *    its least-squares slope; the leak verdict uses the heap after a forced
 *    full GC (a probe loaded through NODE_OPTIONS, see HEAP_PROBE), since RSS
 *    also moves with V8's lazy heap growth. Both check that kernel and
 *    jupyter-server processes return to their baseline.
 *
 * Each phase runs on a fresh server. The scripted model answers the next
 * unused turn per model name, so concurrent sessions sharing one scenario would
 * take each other's turns: in the load phase every session has its own
 * scripted model, and a small router on loopback sends each request to the
 * model of the session whose tag (e.g. `[load-07]`) the request contains.
 *
 * The Socket.io clients run in a process of their own (load/client-process.ts), so their parsing
 * does not share the benchmark's loop; the server's own event-loop delay is printed beside the
 * latency (a probe loaded into it, see world.ts).
 *
 *   npm run bench:load   (needs `npm run build`; npm test does it)
 *   BENCH_LOAD_ONLY=1    the 20-session load phase alone, without the soaks
 */
import os from "node:os";
import { fmt, table } from "./lib/stats";
import { deliveryOk, type Delivery } from "./load/delivery";
import { loadPhase } from "./load/load-phase";
import { KERNEL_EVERY, LEAK_MB_PER_100, LOAD_SESSIONS, log, POOL, startedAt, TOTAL_BUDGET_MS, WARMUP } from "./load/settings";
import { soakRuns, soakSessions, type SoakResult } from "./load/soak";
import { worlds } from "./load/world";
import { stopClients } from "./load/sessions";

/**
 * The verdict is judged on the heap after a forced full GC: what the server
 * still holds. The RSS slope is printed beside it; V8 grows its heap lazily and
 * returns memory to the OS late, so RSS climbs for a while without a leak.
 */
function leakVerdict(r: SoakResult): string {
  if (!Number.isFinite(r.heapSlopeMbPer100)) return "leak not judged: the heap probe did not answer";
  return r.heapSlopeMbPer100 > LEAK_MB_PER_100 ? `possible leak: +${fmt(r.heapSlopeMbPer100, 1)} MB per 100 ${r.units}` : "no leak";
}

function verdict(r: SoakResult): string {
  const back = r.procsAfter.kernels === r.procsBefore.kernels && r.procsAfter.jupyter === r.procsBefore.jupyter;
  const mem = leakVerdict(r);
  const procs = back
    ? `processes back to baseline (${r.procsAfter.kernels} kernels, ${r.procsAfter.jupyter} jupyter-server)`
    : `PROCESSES NOT BACK TO BASELINE: ${r.procsAfter.kernels} kernels / ${r.procsAfter.jupyter} jupyter-server vs ${r.procsBefore.kernels} / ${r.procsBefore.jupyter} before`;
  return `${r.label}: ${mem} (live heap after GC ${fmt(r.heapSlopeMbPer100, 2)} MB per 100 ${r.units}, threshold ${LEAK_MB_PER_100}; RSS slope ${fmt(r.slopeMbPer100, 1)}); ${procs}`;
}

const delivered = (d: Delivery) =>
  deliveryOk(d) ? `${d.received}/${d.transcript} ok` : `${d.received}/${d.transcript}: missing ${d.missing}, dup ${d.duplicates}, reordered ${d.outOfOrder}, foreign ${d.foreign}`;

const loopText = (r: { serverLoop: { p50: number; p99: number; max: number } | null }) =>
  r.serverLoop ? `${fmt(r.serverLoop.p50, 0)} / ${fmt(r.serverLoop.p99, 0)} / ${fmt(r.serverLoop.max, 0)}` : "n/a";

async function main() {
  const watchdog = setTimeout(() => {
    console.error("\nbench:load: over its time budget; stopping");
    void Promise.all([...worlds].map((w) => w.close())).finally(() => process.exit(2));
  }, TOTAL_BUDGET_MS + 45_000);
  watchdog.unref();
  for (const sig of ["SIGINT", "SIGTERM"] as const) {
    process.once(sig, () => void Promise.all([...worlds].map((w) => w.close())).finally(() => process.exit(130)));
  }

  log(`bench:load on ${os.cpus().length} cores, ${fmt(os.totalmem() / 2 ** 30, 0)} GB; ARGUS_KERNEL_POOL=${POOL}; load average ${os.loadavg().map((n) => n.toFixed(2)).join(" ")}`);
  const { solo, load, errors: loadErrors } = await loadPhase();
  console.log(`\nLoad: ${LOAD_SESSIONS} sessions at once, each conversation → planner (3 numpy/cv2 cells, one view_image) → finalize → submit_plan → coder (isolated kernel) → conversation;`);
  console.log(`one Socket.io client per session; ARGUS_KERNEL_POOL=${POOL}; ${os.cpus().length} cores. Baseline: the same run alone on the same server.`);
  console.log(
    table([
      ["measure", `${LOAD_SESSIONS} sessions at once`, "1 session alone"],
      ["runs finished", `${load.finished}/${load.sessions}`, `${solo.finished}/${solo.sessions}`],
      ["wall time, s", fmt(load.wallS, 1), fmt(solo.wallS, 1)],
      ["runs per minute", fmt(load.runsPerMin, 1), fmt(solo.runsPerMin, 1)],
      ["run duration p50 / p99, s", `${fmt(load.runP50, 1)} / ${fmt(load.runP99, 1)}`, `${fmt(solo.runP50, 1)} / ${fmt(solo.runP99, 1)}`],
      ["event append → client, p50 / p99 ms", `${fmt(load.latP50, 0)} / ${fmt(load.latP99, 0)}`, `${fmt(solo.latP50, 0)} / ${fmt(solo.latP99, 0)}`],
      ["  server's event-loop delay p50 / p99 / max, ms", loopText(load), loopText(solo)],
      ["  clients' process (separate) event-loop delay p99, ms", fmt(load.clientLoopP99, 0), fmt(solo.clientLoopP99, 0)],
      ["messages delivered (vs transcript)", delivered(load.delivery), delivered(solo.delivery)],
      ["peak server RSS, MB", fmt(load.peakRssMb, 0), fmt(solo.peakRssMb, 0)],
      ["peak kernels (pool included)", `${load.peakKernels}`, `${solo.peakKernels}`],
      ["peak summed kernel RSS, MB", fmt(load.peakKernelRssMb, 0), fmt(solo.peakKernelRssMb, 0)],
      ["kernels after deleting the sessions", `${load.afterDeleteKernels} (pool ${load.baselineKernels})`, `${solo.afterDeleteKernels} (pool ${solo.baselineKernels})`],
    ]),
  );
  if (load.finished < load.sessions) console.log(`run states under load: ${JSON.stringify(load.states)}`);

  if (process.env.BENCH_LOAD_ONLY === "1") {
    console.log(`\nload only (BENCH_LOAD_ONLY=1): soaks skipped; load average ${os.loadavg().map((n) => n.toFixed(2)).join(" ")}`);
    stopClients();
    process.exit(load.finished === load.sessions && deliveryOk(load.delivery) ? 0 : 1);
  }
  const a = await soakRuns();
  log(`soak (a): ${a.finished}/${a.runs} finished in ${fmt(a.wallS, 0)} s`);
  const b = await soakSessions();
  log(`soak (b): ${b.finished}/${b.runs} finished in ${fmt(b.wallS, 0)} s`);
  const totalS = (Date.now() - startedAt) / 1000;

  console.log(`\nSoaks (fresh server each; every ${KERNEL_EVERY}th run is a planner run with one cell and the coder's isolated kernel; ${WARMUP} warm-up ${"runs/sessions"} not counted):`);
  console.log(
    table([
      ["measure", `(a) ${a.runs} runs in one session`, `(b) ${b.runs} sessions created, used, deleted`],
      ["finished", `${a.finished}/${a.runs}`, `${b.finished}/${b.runs}`],
      ["wall time, s", fmt(a.wallS, 0), fmt(b.wallS, 0)],
      ["server RSS before / after warm-up / end / after (GC, cleanup), MB", [a.rssBeforeMb, a.rssAfterWarmupMb, a.rssEndMb, a.rssAfterMb].map((x) => fmt(x, 0)).join(" / "), [b.rssBeforeMb, b.rssAfterWarmupMb, b.rssEndMb, b.rssAfterMb].map((x) => fmt(x, 0)).join(" / ")],
      ["RSS slope, least squares, MB per 100 (RssAnon)", `${fmt(a.slopeMbPer100, 2)} (${fmt(a.anonSlopeMbPer100, 2)})`, `${fmt(b.slopeMbPer100, 2)} (${fmt(b.anonSlopeMbPer100, 2)})`],
      ["live heap after full GC (no JIT code), after warm-up → end, MB (per 100)", `${fmt(a.heapFirstMb, 1)} → ${fmt(a.heapLastMb, 1)} (${fmt(a.heapSlopeMbPer100, 2)})`, `${fmt(b.heapFirstMb, 1)} → ${fmt(b.heapLastMb, 1)} (${fmt(b.heapSlopeMbPer100, 2)})`],
      ["peak server RSS, MB", fmt(a.peak.rssMb, 0), fmt(b.peak.rssMb, 0)],
      ["kernels before / peak / after", `${a.procsBefore.kernels} / ${a.peak.kernels} / ${a.procsAfter.kernels}`, `${b.procsBefore.kernels} / ${b.peak.kernels} / ${b.procsAfter.kernels}`],
      ["jupyter-server before / peak / after", `${a.procsBefore.jupyter} / ${a.peak.jupyter} / ${a.procsAfter.jupyter}`, `${b.procsBefore.jupyter} / ${b.peak.jupyter} / ${b.procsAfter.jupyter}`],
      ["messages delivered (vs transcript)", delivered(a.delivery), delivered(b.delivery)],
    ]),
  );
  console.log("");
  console.log(verdict(a));
  console.log(verdict(b));
  for (const r of [a, b]) if (r.failures.length) console.log(`${r.label} failures (${r.failures.length}): ${r.failures.slice(0, 5).join("; ")}`);

  for (const [phase, e] of [["load", loadErrors], [a.label, a.errors], [b.label, b.errors]] as const) {
    if (e.lines.length) console.log(`\n${phase}: ${e.lines.length} server log lines mention an error (whole log: ${e.file}), e.g.:\n  ${e.lines.slice(0, 4).join("\n  ")}`);
    if (e.kernelListRace) console.log(`${phase}: jupyter-server's GET /api/kernels race while a kernel starts (upstream; the client retries): ${e.kernelListRace}×`);
  }

  console.log(`\nAll figures (bench:load, ${fmt(totalS / 60, 1)} min):`);
  console.log(
    table([
      ["figure", "value"],
      [`load: runs finished (${LOAD_SESSIONS} at once)`, `${load.finished}/${load.sessions}`],
      ["load: runs per minute (alone)", `${fmt(load.runsPerMin, 1)} (${fmt(solo.runsPerMin, 1)})`],
      ["load: event → client p50 / p99 ms (alone)", `${fmt(load.latP50, 0)} / ${fmt(load.latP99, 0)} (${fmt(solo.latP50, 0)} / ${fmt(solo.latP99, 0)})`],
      ["load: server event-loop delay p50 / p99 / max ms (alone)", `${loopText(load)} (${loopText(solo)})`],
      ["load: delivery", delivered(load.delivery)],
      ["load: peak server RSS MB (alone)", `${fmt(load.peakRssMb, 0)} (${fmt(solo.peakRssMb, 0)})`],
      [`load: peak kernels, ARGUS_KERNEL_POOL=${POOL}`, `${load.peakKernels} (${fmt(load.peakKernelRssMb / 1024, 1)} GB summed RSS)`],
      ["soak (a): RSS slope MB/100 runs (live heap after GC)", `${fmt(a.slopeMbPer100, 2)} (${fmt(a.heapSlopeMbPer100, 2)})`],
      ["soak (a): verdict", leakVerdict(a)],
      ["soak (a): kernels / jupyter before → after", `${a.procsBefore.kernels}/${a.procsBefore.jupyter} → ${a.procsAfter.kernels}/${a.procsAfter.jupyter}`],
      ["soak (b): RSS slope MB/100 sessions (live heap after GC)", `${fmt(b.slopeMbPer100, 2)} (${fmt(b.heapSlopeMbPer100, 2)})`],
      ["soak (b): verdict", leakVerdict(b)],
      ["soak (b): kernels / jupyter before → after", `${b.procsBefore.kernels}/${b.procsBefore.jupyter} → ${b.procsAfter.kernels}/${b.procsAfter.jupyter}`],
      ["runtime", `${fmt(totalS, 0)} s`],
    ]),
  );

  const ok =
    load.finished === load.sessions &&
    solo.finished === solo.sessions &&
    deliveryOk(load.delivery) &&
    deliveryOk(solo.delivery) &&
    a.failures.length === 0 &&
    b.failures.length === 0 &&
    deliveryOk(a.delivery) &&
    deliveryOk(b.delivery);
  process.exit(ok ? 0 : 1);
}

void main().catch(async (error: unknown) => {
  console.error(error);
  await Promise.all([...worlds].map((w) => w.close()));
  process.exit(1);
});
