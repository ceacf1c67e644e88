/**
 * bench:scale-out — the deployed layout under load and under kill -9 (issue #30), beside a
 * single-instance baseline measured in the same run. Real Postgres, Redis, Debian's nginx running
 * deploy/nginx.conf (ports templated as the scale-out tests do, a third `server` line added) and
 * three Argus instances, each with its own jupyter-server; the model is the scripted one, one
 * scenario per run (planner with three cells, coder, reply). bench:scale (scale-out.ts) measures
 * the delivery paths in one process; this one runs the processes an operator runs.
 *
 * 1. Delivery: BENCH_SO_LOAD runs at once; p50/p99 from the event's stamp (just before its
 *    database append) to its arrival at a page on the owner, on another instance (through Redis)
 *    and through nginx; baseline: one instance, no Redis, no nginx. Probes sample each hop alone
 *    meanwhile (database append, Redis stream hop, each instance's HTTP round trip).
 * 2. kill -9 of a run's owner → the first event of that run written by another instance, and the
 *    run's final status (BENCH_SO_TAKEOVERS times).
 * 3. Runs completed / started across BENCH_SO_KILLS kill -9s (each killed instance restarted)
 *    during a load of BENCH_SO_WORKERS runs at once over the three instances.
 *
 *   npm run bench:scale-out      (needs a build: bash scripts/ensure-build.sh; writes bench/results/scale-out-cluster.md)
 *   BENCH_SO_LOAD=8 BENCH_SO_TAKEOVERS=3 BENCH_SO_KILLS=20 BENCH_SO_WORKERS=6 (the defaults)
 */
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { haveNginx } from "@/tests/helpers/nginx";
import { startPostgres } from "@/tests/helpers/postgres";
import { haveRedis } from "@/tests/helpers/redis-server";
import { fmt, percentile } from "./lib/stats";
import { startCluster } from "./scale-out-cluster/cluster";
import { enableCommitTimes, measureDelivery, type DeliveryResult } from "./scale-out-cluster/delivery";
import { survival, takeover, type Survival, type Takeover } from "./scale-out-cluster/kills";

const LOAD = Number(process.env.BENCH_SO_LOAD ?? 8);
const TAKEOVERS = Number(process.env.BENCH_SO_TAKEOVERS ?? 3);
const KILLS = Number(process.env.BENCH_SO_KILLS ?? 20);
const WORKERS = Number(process.env.BENCH_SO_WORKERS ?? 6);
const INSTANCES = 3;

const loadavg = () => os.loadavg().map((n) => n.toFixed(2)).join(" ");
const ms = (n: number) => `${fmt(n, 0)} ms`;

async function main(): Promise<void> {
  if (!haveRedis() || !haveNginx()) throw new Error("bench:scale-out needs Debian's redis-server and nginx (bash scripts/setup.sh --test)");
  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GB RAM, Node ${process.version}`;
  const loadBefore = loadavg();
  console.log(`bench:scale-out — load ${LOAD}, ${TAKEOVERS} takeovers, ${KILLS} kills × ${WORKERS} workers; ${machine}; load average ${loadBefore}`);
  const postgres = await startPostgres();
  await enableCommitTimes(postgres);
  const t0 = Date.now();
  try {
    console.log("[1/3] delivery, single-instance baseline");
    const single = await startCluster({ instances: 1, redis: false, nginx: false, postgres, dbName: "baseline" });
    let baseline: DeliveryResult;
    try {
      baseline = await measureDelivery(single, LOAD);
      print(baseline);
    } finally {
      await single.close();
    }
    console.log(`[1/3] delivery, ${INSTANCES} instances behind nginx`);
    const cluster = await startCluster({ instances: INSTANCES, redis: true, nginx: true, postgres, dbName: "cluster" });
    let spread: DeliveryResult;
    const takeovers: Takeover[] = [];
    let survived: Survival | null = null;
    // Written after each phase, so a bench stopped part way still leaves what it measured.
    const write = () => save(render({ machine, loadBefore, loadAfter: loadavg(), wallS: (Date.now() - t0) / 1000, baseline, spread, takeovers, survived }));
    try {
      spread = await measureDelivery(cluster, LOAD);
      print(spread);
      write();
      console.log("[2/3] kill -9 of a run's owner");
      for (let i = 0; i < TAKEOVERS; i++) {
        takeovers.push(await takeover(cluster, i % INSTANCES));
        console.log(`  takeover ${i + 1}: ${JSON.stringify(takeovers.at(-1))}`);
      }
      write();
      console.log(`[3/3] ${KILLS} kill -9s under load`);
      survived = await survival(cluster, { kills: KILLS, workers: WORKERS });
      write();
    } finally {
      await cluster.close();
    }
    console.log(render({ machine, loadBefore, loadAfter: loadavg(), wallS: (Date.now() - t0) / 1000, baseline, spread, takeovers, survived }));
  } finally {
    await postgres.stop();
  }
}

/** The cluster's paths against each other and against the baseline: what each hop adds. */
function steps(baseline: DeliveryResult, spread: DeliveryResult): (string | number)[][] {
  const of = (d: DeliveryResult, prefix: string) => d.paths.find((p) => p.path.startsWith(prefix));
  const one = of(baseline, "the one instance");
  const owner = of(spread, "owner instance");
  const other = of(spread, "another instance");
  const nginx = of(spread, "through nginx");
  const diff = (label: string, from?: { p50: number; p99: number }, to?: { p50: number; p99: number }) =>
    from && to ? [[label, `${to.p50 - from.p50 >= 0 ? "+" : ""}${fmt(to.p50 - from.p50, 0)} ms`, `${to.p99 - from.p99 >= 0 ? "+" : ""}${fmt(to.p99 - from.p99, 0)} ms`]] : [];
  return [
    ...diff("3 instances on one Postgres + Redis adapter, page on the owner − 1 instance", one, owner),
    ...diff("the Redis stream hop: page on another instance − page on the owner", owner, other),
    ...diff("nginx: page through nginx − page on another instance, direct", other, nginx),
  ];
}

function save(report: string): void {
  const out = path.join(import.meta.dirname, "results", "scale-out-cluster.md");
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, report);
  console.log(`  written to ${path.relative(process.cwd(), out)}`);
}

function print(d: DeliveryResult): void {
  for (const p of d.paths) console.log(`  ${p.path}: p50 ${ms(p.p50)}, p99 ${ms(p.p99)}; after commit p50 ${ms(p.afterCommit.p50)}, p99 ${ms(p.afterCommit.p99)}`);
  console.log(`  stamp → commit: p50 ${ms(d.append.p50)}, p99 ${ms(d.append.p99)}`);
  for (const p of d.probes) console.log(`  ${p.what}: p50 ${ms(p.p50)}, p99 ${ms(p.p99)}`);
}

function render(r: {
  machine: string;
  loadBefore: string;
  loadAfter: string;
  wallS: number;
  baseline: DeliveryResult;
  spread: DeliveryResult;
  takeovers: Takeover[];
  survived: Survival | null;
}): string {
  const ends = (e: Record<string, number>) => Object.entries(e).map(([k, v]) => `${v} ${k}`).join(", ") || "none";
  const load = (d: DeliveryResult) => (d.loadavg.length ? `${fmt(Math.min(...d.loadavg), 1)}–${fmt(Math.max(...d.loadavg), 1)}` : "n/a");
  const row = (label: string, p: DeliveryResult["paths"][number]) => [label, p.events, ms(p.p50), ms(p.p99), ms(p.max), ms(p.afterCommit.p50), ms(p.afterCommit.p99)];
  const appendRow = (label: string, a: DeliveryResult["append"]) => [label, a.events, ms(a.p50), ms(a.p99), ms(a.max), "—", "—"];
  const pathRows = [
    ...r.baseline.paths.map((p) => row(`1 instance, no Redis, no nginx: ${p.path}`, p)),
    appendRow("1 instance: of which stamp → commit (the database append)", r.baseline.append),
    ...r.spread.paths.map((p) => row(`${INSTANCES} instances: ${p.path}`, p)),
    appendRow(`${INSTANCES} instances: of which stamp → commit (the database append)`, r.spread.append),
  ];
  const probeRows = [
    ...r.baseline.probes.map((p) => [`1 instance: ${p.what}`, p.samples, ms(p.p50), ms(p.p99), ms(p.max)]),
    ...r.spread.probes.map((p) => [`${INSTANCES} instances: ${p.what}`, p.samples, ms(p.p50), ms(p.p99), ms(p.max)]),
  ];
  const md = (rows: (string | number)[][]) => rows.map((row) => `| ${row.join(" | ")} |`).join("\n");
  const stamps = r.takeovers.map((t) => t.toOtherInstanceEventS).filter((s): s is number => s !== null);
  const s = r.survived;
  const finished = s?.ended.finished ?? 0;
  return `# bench:scale-out — three instances behind nginx, under load and under kill -9

\`npm run bench:scale-out\` (bench/scale-out-cluster.ts). Real Postgres, Redis, Debian's nginx running
deploy/nginx.conf (ports templated, a third \`server\` line like the others) and ${INSTANCES} Argus instances, each
with its own jupyter-server; the scripted model, one planner run (three cells, coder, reply) per session.
Machine: ${r.machine}, shared with other engineers' tests. Load average before ${r.loadBefore}, after ${r.loadAfter}.
Whole bench ${fmt(r.wallS / 60, 1)} min. ${new Date().toISOString()}.

## 1. Delivery, ${LOAD} runs at once

From the event's stamp (taken by the writing instance just before its database append) to its arrival at a
Socket.io page; live arrivals only. Postgres records when each event's transaction committed
(\`track_commit_timestamp\`), which splits each delivery into the database append (stamp → commit: waiting
for a pooled connection, the transaction) and everything after it (commit → arrival: the run's state write,
the emit, Redis, nginx, the page's socket). The test Postgres runs with \`fsync=off\` and \`synchronous_commit=off\`. Runs ended: baseline ${ends(r.baseline.ended)}; ${INSTANCES} instances ${ends(r.spread.ended)}.
Load average (1 min) while it ran: baseline ${load(r.baseline)}, ${INSTANCES} instances ${load(r.spread)}.

| path | events | p50 | p99 | max | commit → arrival p50 | commit → arrival p99 |
|---|---|---|---|---|---|---|
${md(pathRows)}

What each step of the path adds (differences of the rows above):

| step | p50 | p99 |
|---|---|---|
${md(steps(r.baseline, r.spread))}

Each hop alone, sampled every 100 ms during the same runs:

| probe | samples | p50 | p99 | max |
|---|---|---|---|---|
${md(probeRows)}

## 2. kill -9 of a run's owner

A run under way (its planner's first step written) on one instance; that instance killed with SIGKILL (its
jupyter-server and kernels with it) and restarted afterwards. Default lease (\`ARGUS_RUN_LEASE_SECONDS\` 10).
"First other-instance event": the first event of that run stamped after the owner had exited, as a page
on another instance received it: the instance that took the lease saying the run moved and continuing it
(or, when the run cannot be rebuilt from its log, marking it interrupted). A final status other than
finished carries the run's last words from its transcript.

| # | kill → first other-instance event (received) | (stamped) | final status |
|---|---|---|---|
${md(r.takeovers.map((t, i) => [i + 1, t.toOtherInstanceEventS === null ? "none within 5 min" : `${fmt(t.toOtherInstanceEventS, 1)} s`, t.toOtherInstanceStampS === null ? "—" : `${fmt(t.toOtherInstanceStampS, 1)} s`, t.finalStatus]))}

Median ${stamps.length ? `${fmt(percentile(stamps, 50), 1)} s` : "n/a"}.

${s ? section3(s, finished) : `## 3. ${KILLS} kill -9s during a ${INSTANCES}-instance load\n\nNot reached in this run.\n`}`;
}

function section3(s: Survival, finished: number): string {
  const other = Object.fromEntries(Object.entries(s.ended).filter(([k]) => k !== "finished"));
  const ends = Object.entries(other).map(([k, v]) => `${v} ${k}`).join(", ") || "none";
  return `## 3. ${s.kills} kill -9s during a ${INSTANCES}-instance load

${WORKERS} runs at once, each posted to one instance directly (which owns it) and watched through nginx; the bench
kills an instance that owns a run in flight, restarts it on its old port, and goes on to the next (round robin),
${s.kills} times, in ${fmt(s.wallS, 0)} s.

| runs started | completed (finished) | completed / started | other ends | no end seen | posts lost to a kill | finished run p50 |
|---|---|---|---|---|---|---|
| ${s.started} | ${finished} | ${fmt((100 * finished) / Math.max(1, s.started), 1)} % | ${ends} | ${s.noEnd} | ${s.postFailed} | ${fmt(s.runP50S, 1)} s |
${s.why.length ? `\nWhat the runs that did not finish last said:\n\n${s.why.map((w) => `- ${w}`).join("\n")}\n` : ""}`;
}

await main();
