/**
 * What a kill -9 of a run's owner costs. takeover(): a run under way on one instance, its owner
 * killed; the figure is the time from the kill to the first event of that run written by another
 * instance (stamped after the owner had exited, so no other could have written it), and the
 * run's final status (that first event is the instance that took the lease continuing the run, or
 * marking it interrupted when it cannot be rebuilt). survival(): a steady load over all instances while the bench
 * kills one instance that owns runs 20 times (restarting it each time): runs completed / started.
 */
import { percentile } from "../lib/stats";
import type { Cluster } from "./cluster";
import { ENDED, watch, type Watcher } from "./watch";

export interface Takeover {
  /** kill -9 → first event of the run stamped by another instance, as its page received it. */
  toOtherInstanceEventS: number | null;
  /** …and as stamped by that instance (before its database append). */
  toOtherInstanceStampS: number | null;
  finalStatus: string;
}

export interface Survival {
  kills: number;
  started: number;
  postFailed: number;
  ended: Record<string, number>;
  /** Runs whose end no page saw within the ceiling. */
  noEnd: number;
  /** What each run that ended other than finished last said (its transcript's error or note). */
  why: string[];
  wallS: number;
  runP50S: number;
}

const RUN_CEILING_MS = 5 * 60_000;
const endOf = (w: Watcher, runId: string) => w.states.find((s) => s.runId === runId && ENDED.includes(s.agentState));

export async function takeover(cluster: Cluster, k: number): Promise<Takeover> {
  const n = cluster.instances.length;
  const run = await cluster.prepareRun(k);
  // A page on another instance: it stays up while the owner dies.
  const page = await watch(cluster.instances[(k + 1) % n]!.server.url, run.session);
  try {
    const runId = await run.post(k);
    // Under way: the person's message, the reply and the planner's first step are written.
    await page.until(() => page.arrivals.filter((a) => a.runId === runId).length >= 3, `run ${runId} under way`, RUN_CEILING_MS);
    if (endOf(page, runId)) return { toOtherInstanceEventS: null, toOtherInstanceStampS: null, finalStatus: `${endOf(page, runId)!.agentState} (ended before the kill)` };
    const killedAt = Date.now();
    await cluster.crash(k);
    const goneAt = Date.now();
    const after = () => page.arrivals.find((a) => a.runId === runId && a.stampedAt > goneAt);
    let first: { at: number; stampedAt: number } | undefined;
    try {
      await page.until(() => Boolean(after()), `an event of run ${runId} from another instance`, RUN_CEILING_MS);
      first = after();
      await page.until(() => Boolean(endOf(page, runId)), `run ${runId} ended`, RUN_CEILING_MS);
    } catch {
      // reported below: no other instance wrote for the run (or it never ended) within the ceiling
    }
    await cluster.restart(k);
    const status = endOf(page, runId)?.agentState ?? "no end seen";
    return {
      toOtherInstanceEventS: first ? (first.at - killedAt) / 1000 : null,
      toOtherInstanceStampS: first ? (first.stampedAt - killedAt) / 1000 : null,
      finalStatus: status === "finished" ? status : `${status}: ${await lastWords(cluster, (k + 1) % n, run.session, runId)}`,
    };
  } finally {
    page.close();
  }
}

/** What a run that did not finish last said (its error or note), for the results table. */
async function lastWords(cluster: Cluster, k: number, session: { id: string; token: string }, runId: string): Promise<string> {
  try {
    const res = await cluster.instances[k]!.call("GET", `/api/sessions/${session.id}`, { token: session.token });
    const messages = ((res.json as { messages?: { runId?: string; role: string; content: string }[] }).messages ?? []).filter((m) => m.runId === runId);
    const last = messages.findLast((m) => /error|note|conversation/.test(m.role)) ?? messages.at(-1);
    return last ? `${last.role}: ${last.content.replace(/\s+/g, " ").slice(0, 160)}` : "(no messages)";
  } catch (error) {
    return `(transcript unreadable: ${String(error)})`;
  }
}

export async function survival(cluster: Cluster, options: { kills: number; workers: number }): Promise<Survival> {
  const n = cluster.instances.length;
  const up = new Set(cluster.instances.map((_, k) => k));
  /** Runs in flight per owner instance. */
  const inFlight = new Map<number, number>(cluster.instances.map((_, k) => [k, 0]));
  const changed = new Set<() => void>();
  const poke = () => {
    for (const fn of [...changed]) fn();
  };
  const until = (check: () => boolean) =>
    new Promise<void>((resolve) => {
      if (check()) return resolve();
      const fn = () => {
        if (!check()) return;
        changed.delete(fn);
        resolve();
      };
      changed.add(fn);
    });
  const ended: Record<string, number> = {};
  const durations: number[] = [];
  const why: string[] = [];
  let started = 0;
  let postFailed = 0;
  let noEnd = 0;
  let failedInARow = 0;
  let killing = true;
  let next = 0;
  const t0 = Date.now();

  const worker = async () => {
    while (killing) {
      const candidates = [...up];
      const k = candidates[next++ % candidates.length]!;
      let page: Watcher | null = null;
      try {
        const run = await cluster.prepareRun(k);
        // Through nginx: when an instance dies, the page reconnects to another and catches up.
        page = await watch(cluster.nginx!.url, run.session);
        const begun = Date.now();
        const runId = await run.post(k);
        started++;
        inFlight.set(k, inFlight.get(k)! + 1);
        poke();
        try {
          const p = page;
          await p.until(() => Boolean(endOf(p, runId)), `run ${runId} ended`, RUN_CEILING_MS);
          const state = endOf(p, runId)!.agentState;
          ended[state] = (ended[state] ?? 0) + 1;
          if (state === "finished") durations.push((Date.now() - begun) / 1000);
          else why.push(`${state}: ${await lastWords(cluster, [...up][0] ?? k, run.session, runId)}`);
        } catch {
          noEnd++;
        } finally {
          inFlight.set(k, inFlight.get(k)! - 1);
          poke();
        }
      } catch (error) {
        // Its instance died while the session was made or the message posted: wait for it to be back.
        // Anything else failing again and again is a broken bench, not a figure.
        postFailed++;
        if (up.has(k) && ++failedInARow > 20) throw new Error(`runs cannot be started on a live instance: ${String(error)}`);
        await until(() => up.has(k));
        page?.close();
        continue;
      }
      failedInARow = 0;
      page?.close();
    }
  };

  const killer = async () => {
    for (let i = 0; i < options.kills; i++) {
      const k = i % n;
      // Only an instance that owns a run in flight is killed: every kill costs a run something.
      await until(() => inFlight.get(k)! > 0);
      up.delete(k);
      await cluster.crash(k);
      await cluster.restart(k);
      up.add(k);
      poke();
      console.log(`  kill ${i + 1}/${options.kills} of ${cluster.instances[k]!.id} done; ${started} runs started so far`);
    }
    killing = false;
  };

  await Promise.all([killer(), ...Array.from({ length: options.workers }, () => worker())]);
  return { kills: options.kills, started, postFailed, ended, noEnd, why, wallS: (Date.now() - t0) / 1000, runP50S: percentile(durations, 50) };
}
