import { startScriptedModel } from "@/scripted-model/server";
import { fmt, percentile } from "../lib/stats";
import { addDelivery, checkDelivery, latenciesOf, NO_DELIVERY, type Delivery } from "./delivery";
import { startRouter } from "./model-router";
import { plannerRun, scenario, shapesPng } from "./scenarios";
import { clientLoopP99, createSession, post, remove, upload, Watch } from "./sessions";
import { LOAD_SESSIONS, log, mb, now, POOL } from "./settings";
import { heapAfterGc, rssNowKb, serverErrors, settle, startSampler, startWorld, type ErrorLines, type ServerLoopDelay } from "./world";

interface LoadResult {
  sessions: number;
  finished: number;
  states: Record<string, number>;
  wallS: number;
  runsPerMin: number;
  runP50: number;
  runP99: number;
  latP50: number;
  latP99: number;
  messages: number;
  /** The clients' process's own event-loop delay p99 while the runs went (ms): how much of the latency is the clients'. */
  clientLoopP99: number;
  /** The server's event-loop delay while the runs went (ms), from the probe world.ts loads into it. */
  serverLoop: ServerLoopDelay | null;
  delivery: Delivery;
  peakRssMb: number;
  peakKernels: number;
  peakJupyter: number;
  peakKernelRssMb: number;
  baselineKernels: number;
  afterDeleteKernels: number;
  afterDeleteJupyter: number;
  unrouted: number;
}

export async function loadPhase(): Promise<{ solo: LoadResult; load: LoadResult; errors: ErrorLines }> {
  const count = LOAD_SESSIONS;
  const tags = Array.from({ length: count + 1 }, (_, i) => (i === count ? "[load-solo]" : `[load-${String(i).padStart(2, "0")}]`));
  const allTags = /\[load-(?:\d\d|solo)\]/g;
  const blobsOf = (i: number) => 3 + (i % 6);
  const models = await Promise.all(tags.map((tag, i) => startScriptedModel(scenario(`load ${tag}`, plannerRun(tag, blobsOf(i), 3)))));
  const byTag = new Map(tags.map((t, i) => [t, models[i]!]));
  const router = await startRouter((body) => {
    const m = /\[load-(?:\d\d|solo)\]/.exec(body);
    return m ? byTag.get(m[0]) : undefined;
  });
  const images = await Promise.all(tags.map((_, i) => shapesPng(blobsOf(i), i)));

  const w = await startWorld(router.url);
  log(`load: server up (pid ${w.pid}); waiting for the pool of ${POOL} kernels`);
  const base = await settle(w, { kernels: POOL, jupyter: 1 }, 60_000);
  const baselineRss = rssNowKb(w);

  async function runBatch(indices: number[]): Promise<LoadResult> {
    const prepared = await Promise.all(
      indices.map(async (i) => {
        const s = await createSession(w);
        const media = await upload(w, s, images[i]!, "shapes.png");
        const watch = await Watch.open(w.server.url, s);
        return { i, s, media, watch };
      }),
    );
    const sampler = startSampler(w);
    // Both loop-delay histograms start here (the server's probe resets on each reading).
    await heapAfterGc(w);
    await clientLoopP99(true);
    const t0 = now();
    const outcomes = await Promise.all(
      prepared.map(async (p) => {
        const start = now();
        const runId = await post(w, p.s, `How many blobs are in shapes.png? ${tags[p.i]}`, [p.media]);
        const state = await p.watch.until(runId, 8 * 60_000);
        return { ...p, runId, state, durationMs: now() - start, endAt: now() };
      }),
    );
    const wallS = (Math.max(...outcomes.map((o) => o.endAt)) - t0) / 1000;
    sampler.stop();
    const serverLoop = (await heapAfterGc(w))?.loopDelayMs ?? null;
    const clientLoop = await clientLoopP99(false);
    let delivery = NO_DELIVERY;
    const latencies: number[] = [];
    const states: Record<string, number> = {};
    for (const o of outcomes) {
      states[o.state] = (states[o.state] ?? 0) + 1;
      delivery = addDelivery(delivery, await checkDelivery(w, o.s, o.watch, new Set([o.runId]), tags[o.i]!, allTags));
      latencies.push(...latenciesOf(o.watch));
      o.watch.close();
    }
    for (const o of outcomes) await remove(w, o.s);
    const after = await settle(w, { kernels: base.kernels, jupyter: base.jupyter });
    const durations = outcomes.map((o) => o.durationMs / 1000);
    return {
      sessions: indices.length,
      finished: states.finished ?? 0,
      states,
      wallS,
      runsPerMin: (indices.length / wallS) * 60,
      runP50: percentile(durations, 50),
      runP99: percentile(durations, 99),
      latP50: percentile(latencies, 50),
      latP99: percentile(latencies, 99),
      messages: latencies.length,
      clientLoopP99: clientLoop,
      serverLoop,
      delivery,
      peakRssMb: mb(sampler.peak.rssKb),
      peakKernels: sampler.peak.kernels,
      peakJupyter: sampler.peak.jupyter,
      peakKernelRssMb: mb(sampler.peak.kernelRssKb),
      baselineKernels: base.kernels,
      afterDeleteKernels: after.kernels,
      afterDeleteJupyter: after.jupyter,
      unrouted: router.unrouted(),
    };
  }

  log(`load: baseline rss ${fmt(mb(baselineRss), 0)} MB, ${base.kernels} kernels; one session alone first`);
  const solo = await runBatch([count]);
  log(`load: solo run ${solo.states.finished ? "finished" : JSON.stringify(solo.states)} in ${fmt(solo.runP50, 1)} s; now ${count} at once`);
  const load = await runBatch(Array.from({ length: count }, (_, i) => i));
  log(`load: ${load.finished}/${count} finished in ${fmt(load.wallS, 1)} s`);
  const errors = serverErrors(w, "load");
  await w.close();
  router.server.close();
  router.server.closeAllConnections();
  await Promise.all(models.map((m) => m.close()));
  return { solo, load, errors };
}
