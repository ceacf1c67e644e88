import { startScriptedModel, type ScriptedModel } from "@/scripted-model/server";
import { slope, statusMemory, type ProcCounts } from "../lib/proc-stats";
import { fmt } from "../lib/stats";
import { addDelivery, checkDelivery, NO_DELIVERY, type Delivery } from "./delivery";
import { chatRun, plannerRun, scenario, shapesPng } from "./scenarios";
import { createSession, post, remove, upload, Watch, type Session } from "./sessions";
import { KERNEL_EVERY, log, mb, now, POOL, remaining, sleep, SOAK_RUNS, SOAK_SESSIONS, WARMUP } from "./settings";
import { heapAfterGc, rssNowKb, serverErrors, settle, startSampler, startWorld, type ErrorLines, type World } from "./world";

export interface SoakResult {
  label: string;
  units: string;
  runs: number;
  finished: number;
  failures: string[];
  wallS: number;
  rssBeforeMb: number;
  rssAfterWarmupMb: number;
  rssEndMb: number;
  rssAfterMb: number;
  slopeMbPer100: number;
  anonSlopeMbPer100: number;
  /** Live data right after a forced full GC (heap without code, plus external), after the warm-up and at the end, MB, and the slope. */
  heapFirstMb: number;
  heapLastMb: number;
  heapSlopeMbPer100: number;
  heapPoints: number;
  procsBefore: ProcCounts;
  peak: { kernels: number; jupyter: number; rssMb: number };
  procsAfter: ProcCounts;
  delivery: Delivery;
  errors: ErrorLines;
}

/**
 * Runs WARMUP + `measured` iterations of `body` on a fresh server whose
 * scripted model is re-loaded with each step's scenario. Samples RSS after
 * every step, and the heap after a forced full GC once after the warm-up and
 * once at the end (no GC is forced in between, so the RSS series is natural).
 */
async function soak(
  label: string,
  units: string,
  measured: number,
  body: (w: World, model: ScriptedModel, i: number) => Promise<{ state: string; delivery?: Delivery }>,
  finish: (w: World) => Promise<Delivery | undefined>,
): Promise<SoakResult> {
  const model = await startScriptedModel(scenario("soak", chatRun("[none]", "#none#")));
  const w = await startWorld(model.url);
  const procsBefore = await settle(w, { kernels: POOL, jupyter: 1 }, 60_000);
  const rssBeforeMb = mb(rssNowKb(w));
  log(`${label}: server up (pid ${w.pid}), rss ${fmt(rssBeforeMb, 0)} MB, ${procsBefore.kernels} kernels; ${WARMUP} warm-up ${units}, then ${measured}`);
  const failures: string[] = [];
  let delivery = NO_DELIVERY;
  let finished = 0;
  const points: [number, number][] = [];
  const anon: [number, number][] = [];
  const heap: [number, number][] = [];
  const probeHeap = async (x: number) => {
    const h = await heapAfterGc(w);
    if (h) heap.push([x, h.dataMb]);
  };
  let rssAfterWarmupMb = Number.NaN;
  const sampler = startSampler(w);
  const t0 = now();
  let done = 0;
  for (let i = -WARMUP; i < measured; i++) {
    if (remaining() < 60_000) {
      failures.push(`stopped at ${units} ${i}: the benchmark's time budget is nearly used up`);
      break;
    }
    const { state, delivery: d } = await body(w, model, i);
    if (i < 0) {
      if (i === -1) {
        rssAfterWarmupMb = mb(rssNowKb(w));
        await probeHeap(0);
      }
      if (state !== "finished") failures.push(`warm-up ${i + WARMUP}: ${state}`);
      continue;
    }
    done++;
    if (state === "finished") finished++;
    else failures.push(`${units} ${i}: ${state}`);
    if (d) delivery = addDelivery(delivery, d);
    const mem = statusMemory(w.pid);
    points.push([i, mb(mem?.vmRssKb)]);
    anon.push([i, mb(mem?.rssAnonKb)]);
    if ((i + 1) % 50 === 0) log(`${label}: ${i + 1}/${measured} ${units}, rss ${fmt(mb(mem?.vmRssKb), 0)} MB`);
  }
  const wallS = (now() - t0) / 1000;
  const rssEndMb = mb(rssNowKb(w));
  await probeHeap(done);
  const final = await finish(w);
  if (final) delivery = addDelivery(delivery, final);
  sampler.stop();
  const procsAfter = await settle(w, { kernels: procsBefore.kernels, jupyter: procsBefore.jupyter });
  await sleep(2000);
  const rssAfterMb = mb(rssNowKb(w));
  const errors = serverErrors(w, label.replace(/\W+/g, "-").replace(/-$/, ""));
  await w.close();
  await model.close();
  return {
    label,
    units,
    runs: done,
    finished,
    failures,
    wallS,
    rssBeforeMb,
    rssAfterWarmupMb,
    rssEndMb,
    rssAfterMb,
    slopeMbPer100: slope(points) * 100,
    anonSlopeMbPer100: slope(anon) * 100,
    heapFirstMb: heap[0]?.[1] ?? Number.NaN,
    heapLastMb: heap.at(-1)?.[1] ?? Number.NaN,
    heapSlopeMbPer100: slope(heap) * 100,
    heapPoints: heap.length,
    procsBefore,
    peak: { kernels: sampler.peak.kernels, jupyter: sampler.peak.jupyter, rssMb: mb(sampler.peak.rssKb) },
    procsAfter,
    delivery,
    errors,
  };
}

/** (a) 200 runs, one after another, in one session. */
export async function soakRuns(): Promise<SoakResult> {
  const tag = "[soak-a]";
  let session: Session | null = null;
  let watch: Watch | null = null;
  let media = "";
  const runIds = new Set<string>();
  return soak(
    "soak (a)",
    "runs",
    SOAK_RUNS,
    async (w, model, i) => {
      if (!session) {
        session = await createSession(w);
        media = await upload(w, session, await shapesPng(5, 1), "shapes.png");
        watch = await Watch.open(w.server.url, session);
      }
      const n = i + WARMUP;
      const marker = `#${String(n).padStart(3, "0")}#`;
      const planner = n % KERNEL_EVERY === KERNEL_EVERY - 1;
      model.load(scenario(`soak a ${marker}`, planner ? plannerRun(tag, 5, 1) : chatRun(tag, marker)));
      const runId = await post(w, session, planner ? `How many blobs now? ${tag} ${marker}` : `Note this: ${tag} ${marker}`, planner ? [media] : undefined);
      runIds.add(runId);
      return { state: await watch!.until(runId, 120_000) };
    },
    async (w) => {
      if (!session || !watch) return undefined;
      const d = await checkDelivery(w, session, watch, runIds, tag, /\[soak-a\]/g);
      watch.close();
      await remove(w, session);
      return d;
    },
  );
}

/** (b) 200 sessions created, used (an upload and one run) and deleted. */
export async function soakSessions(): Promise<SoakResult> {
  const png = await shapesPng(4, 2);
  return soak(
    "soak (b)",
    "sessions",
    SOAK_SESSIONS,
    async (w, model, i) => {
      const n = i + WARMUP;
      const tag = `[soak-b-${n}]`;
      const planner = n % KERNEL_EVERY === KERNEL_EVERY - 1;
      const s = await createSession(w);
      const media = await upload(w, s, png, "shapes.png");
      const watch = await Watch.open(w.server.url, s);
      model.load(scenario(`soak b ${tag}`, planner ? plannerRun(tag, 4, 1) : chatRun(tag, "#hello#")));
      const runId = await post(w, s, planner ? `How many blobs? ${tag}` : `Hello ${tag} #hello#`, planner ? [media] : undefined);
      const state = await watch.until(runId, 120_000);
      const delivery = await checkDelivery(w, s, watch, new Set([runId]), tag, /\[soak-b-\d+\]/g);
      watch.close();
      await remove(w, s);
      return { state, delivery };
    },
    async () => undefined,
  );
}
