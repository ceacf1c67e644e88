/**
 * Scale-out figures, printed side by side in one run:
 *
 * 1. Delivery: an event appended to the log (persisted first) on one instance, received by a
 *    Socket.io client, paths measured one after the other with the same events and pacing:
 *    one instance without Redis (the in-process adapter, the single-instance baseline) and,
 *    with REDIS_URL, the client on the appending instance or on the other one (through the
 *    Redis stream); on one SQLite file, then on one Postgres. All servers and clients live in
 *    this process, so the figures compare paths, not machines.
 * 2. Events/s through Argus's append path on SQLite and on Postgres (append-rate.ts).
 * 3. Runs/min, one instance against two on one Postgres and one Redis, real servers, kernels
 *    and HTTP (runs-per-minute.ts; needs a build). BENCH_SCALE_RPM_SESSIONS=0 skips it.
 *
 * Postgres and redis-server are Debian's, started here on loopback in scratch directories.
 * Prints p50/p99, losses, reorderings and the load average.
 *
 *   npm run bench:scale
 *   BENCH_SCALE_EVENTS=2000 BENCH_SCALE_APPENDS=2000 BENCH_SCALE_RPM_SESSIONS=8 BENCH_SCALE_RPM_RUNS=4
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { io as connect, type Socket } from "socket.io-client";
import { loadConfig } from "@/lib/foundation/config";
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";
import { createSession } from "@/lib/features/sessions/service";
import { startSpineServer, type SpineServer } from "@/scripted-model/spine-server";
import { startPostgres } from "@/tests/helpers/postgres";
import { haveRedis, startRedis } from "@/tests/helpers/redis-server";
import { fmt, percentile, table } from "./lib/stats";
import { appendRates, type AppendRate } from "./scale-out/append-rate";
import { runsPerMinute, type RunsPerMinute } from "./scale-out/runs-per-minute";

const EVENTS = Number(process.env.BENCH_SCALE_EVENTS ?? 2000);
const APPENDS = Number(process.env.BENCH_SCALE_APPENDS ?? 2000);
const RPM_SESSIONS = Number(process.env.BENCH_SCALE_RPM_SESSIONS ?? 8);
const RPM_RUNS = Number(process.env.BENCH_SCALE_RPM_RUNS ?? 4);
const WARMUP = 100;
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const loadavg = () => os.loadavg().map((n) => n.toFixed(2)).join(" ");

interface PathResult {
  label: string;
  delivered: number;
  lost: number;
  reordered: number;
  p50: number;
  p99: number;
}

async function watch(url: string, session: { id: string; token: string }): Promise<{ socket: Socket; got: Map<number, number>; order: number[] }> {
  const socket = connect(url, { auth: { sessionId: session.id, token: session.token }, transports: ["websocket"], forceNew: true, reconnection: false });
  const got = new Map<number, number>();
  const order: number[] = [];
  socket.on("message", (m: StreamedMessage) => {
    got.set(m.seq, now());
    order.push(m.seq);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  return { socket, got, order };
}

/** Appends on `writer`, watched by a client of `reader`; paced one event per millisecond. */
async function measure(label: string, writer: SpineServer, reader: SpineServer): Promise<PathResult> {
  const session = await createSession(writer.core, null);
  const client = await watch(reader.url, session);
  const append = async (i: number) =>
    (await writer.core.events.append(session.id, { source: "user", agent: "user", action: "message", args: { content: `event ${i} ${"x".repeat(200)}` } })).event.id!;

  // Warm-up: until an event makes it through, the Redis links may still be connecting.
  for (let i = 0; ; i++) {
    const seq = await append(-1 - i);
    await sleep(20);
    if (client.got.has(seq) && i >= WARMUP / 20) break;
  }
  client.got.clear();
  client.order.length = 0;

  const sentAt = new Map<number, number>();
  for (let i = 0; i < EVENTS; i++) {
    // Timed from just before the append (which persists the event) to receipt, as bench:fanout does.
    const t0 = now();
    sentAt.set(await append(i), t0);
    await sleep(1);
  }
  const deadline = now() + 30_000;
  while (client.got.size < EVENTS && now() < deadline) await sleep(10);
  client.socket.disconnect();

  const latencies: number[] = [];
  for (const [seq, t0] of sentAt) {
    const at = client.got.get(seq);
    if (at !== undefined) latencies.push(at - t0);
  }
  let reordered = 0;
  for (let i = 1; i < client.order.length; i++) if (client.order[i]! <= client.order[i - 1]!) reordered++;
  return { label, delivered: latencies.length, lost: EVENTS - latencies.length, reordered, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

async function main() {
  if (!haveRedis()) {
    console.error("bench:scale needs Debian's redis-server and postgresql: bash scripts/setup.sh --test");
    process.exit(1);
  }
  console.log(`bench:scale on ${os.cpus().length} cores; load average ${loadavg()}; ${EVENTS} events per path, one per ms`);
  const soloDir = mkdtempSync(path.join(os.tmpdir(), "argus-bench-solo-"));
  const sharedDir = mkdtempSync(path.join(os.tmpdir(), "argus-bench-shared-"));
  const pgSoloDir = mkdtempSync(path.join(os.tmpdir(), "argus-bench-pg-solo-"));
  const pgSharedDir = mkdtempSync(path.join(os.tmpdir(), "argus-bench-pg-shared-"));
  const redis = await startRedis();
  const postgres = await startPostgres();
  const pgSoloUrl = await postgres.createDatabase("bench_solo");
  const pgSharedUrl = await postgres.createDatabase("bench_shared");
  const config = (dir: string, env: Record<string, string>) => loadConfig({ ARGUS_DATA_DIR: dir, ARGUS_JUPYTER: "off", ARGUS_CLUSTER_SECRET: "bench-scale-out-cluster-secret-0123456789", ...env }, dir);
  const solo = await startSpineServer(config(soloDir, {}));
  const a = await startSpineServer(config(sharedDir, { REDIS_URL: redis.url, ARGUS_INSTANCE_ID: "bench-a" }));
  const b = await startSpineServer(config(sharedDir, { REDIS_URL: redis.url, ARGUS_INSTANCE_ID: "bench-b" }));
  const pgSolo = await startSpineServer(config(pgSoloDir, { DATABASE_URL: pgSoloUrl }));
  const pgA = await startSpineServer(config(pgSharedDir, { DATABASE_URL: pgSharedUrl, REDIS_URL: redis.url, ARGUS_INSTANCE_ID: "bench-pg-a" }));
  const pgB = await startSpineServer(config(pgSharedDir, { DATABASE_URL: pgSharedUrl, REDIS_URL: redis.url, ARGUS_INSTANCE_ID: "bench-pg-b" }));

  const results = [
    await measure("SQLite, single instance, in-process adapter (baseline)", solo, solo),
    await measure("SQLite + REDIS_URL, client on the appending instance", a, a),
    await measure("SQLite + REDIS_URL, client on the other instance", a, b),
    await measure("Postgres, single instance, in-process adapter", pgSolo, pgSolo),
    await measure("Postgres + REDIS_URL, client on the appending instance", pgA, pgA),
    await measure("Postgres + REDIS_URL, client on the other instance", pgA, pgB),
  ];
  console.log(
    "\n" +
      table([
        ["path", "delivered", "lost", "reordered", "p50 ms", "p99 ms"],
        ...results.map((r) => [r.label, r.delivered, r.lost, r.reordered, fmt(r.p50), fmt(r.p99)]),
      ]),
  );
  const [base, , other, pgBase, , pgOther] = results;
  const signed = (ms: number) => `${ms >= 0 ? "+" : ""}${fmt(ms)}`;
  console.log(`\nother instance vs single instance: SQLite p50 ${signed(other!.p50 - base!.p50)} ms, p99 ${signed(other!.p99 - base!.p99)} ms; Postgres p50 ${signed(pgOther!.p50 - pgBase!.p50)} ms, p99 ${signed(pgOther!.p99 - pgBase!.p99)} ms; load average ${loadavg()}`);

  console.log(`\nappend rate (${APPENDS} events per shape, core.events.append), load average ${loadavg()}`);
  const sqliteRates = await appendRates(solo.core, APPENDS);
  const pgRates = await appendRates(pgSolo.core, APPENDS);
  console.log(
    table([
      ["shape", "SQLite events/s", "Postgres events/s"],
      ...sqliteRates.map((r: AppendRate, i) => [r.shape, fmt(r.perSecond, 0), fmt(pgRates[i]!.perSecond, 0)]),
    ]),
  );
  await Promise.all([solo.close(), a.close(), b.close(), pgSolo.close(), pgA.close(), pgB.close()]);

  const rpm: RunsPerMinute[] = [];
  if (RPM_SESSIONS > 0) {
    for (const instances of [1, 2] as const) {
      console.log(`\nruns/min: ${instances} instance(s), ${RPM_SESSIONS} sessions at once × ${RPM_RUNS} runs; load average ${loadavg()}`);
      const databaseUrl = await postgres.createDatabase(`bench_rpm_${instances}`);
      rpm.push(await runsPerMinute({ instances, sessions: RPM_SESSIONS, runsPerSession: RPM_RUNS, databaseUrl, redisUrl: redis.url }));
    }
    console.log(
      "\n" +
        table([
          ["instances", "runs", "finished", "states", "wall s", "runs/min", "run p50 s", "run p99 s"],
          ...rpm.map((r) => [r.instances, r.runs, r.finished, JSON.stringify(r.states), fmt(r.wallS, 1), fmt(r.runsPerMin, 1), fmt(r.runP50S, 1), fmt(r.runP99S, 1)]),
        ]),
    );
  }
  console.log(`\nload average at the end ${loadavg()}`);

  await redis.close();
  await postgres.stop();
  for (const dir of [soloDir, sharedDir, pgSoloDir, pgSharedDir]) rmSync(dir, { recursive: true, force: true });
  const bad = results.filter((r) => r.lost > 0 || r.reordered > 0);
  if (bad.length) console.log(`LOST OR REORDERED EVENTS in: ${bad.map((r) => r.label).join(", ")}`);
  const unfinished = rpm.filter((r) => r.finished < r.runs);
  if (unfinished.length) console.log(`UNFINISHED RUNS with ${unfinished.map((r) => `${r.instances} instance(s)`).join(", ")}`);
  process.exit(bad.length || unfinished.length ? 1 : 0);
}

void main();
