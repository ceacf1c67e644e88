/**
 * Scale-out delivery: an event appended to the log (persisted first) on one
 * instance, received by a Socket.io client. Three paths measured in the same
 * run, one after the other, with the same events and pacing:
 *   1. one instance, no Redis (the in-process adapter): the single-instance baseline;
 *   2. REDIS_URL set, the client on the appending instance A;
 *   3. REDIS_URL set, the client on the other instance B (through the Redis stream).
 * A and B share one SQLite file and one redis-server started here (Debian's
 * package, on loopback, in a scratch directory). All servers and clients live
 * in this process, so the figures compare paths, not machines. Prints p50/p99,
 * losses, reorderings and the load average.
 *
 *   npm run bench:scale
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { io as connect, type Socket } from "socket.io-client";
import { loadConfig } from "@/lib/config";
import type { StreamedMessage } from "@/lib/protocol/agent-message";
import { createSession } from "@/lib/sessions/service";
import { startSpineServer, type SpineServer } from "@/scripted-model/spine-server";
import { haveRedis, startRedis } from "@/tests/helpers/redis-server";
import { fmt, percentile, table } from "./lib/stats";

const EVENTS = Number(process.env.BENCH_SCALE_EVENTS ?? 2000);
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
    console.error("bench:scale needs Debian's redis-server: bash scripts/setup.sh --test (or apt-get install redis-server)");
    process.exit(1);
  }
  console.log(`bench:scale on ${os.cpus().length} cores; load average ${loadavg()}; ${EVENTS} events per path, one per ms`);
  const soloDir = mkdtempSync(path.join(os.tmpdir(), "argus-bench-solo-"));
  const sharedDir = mkdtempSync(path.join(os.tmpdir(), "argus-bench-shared-"));
  const redis = await startRedis();
  const solo = await startSpineServer(loadConfig({ ARGUS_DATA_DIR: soloDir, ARGUS_JUPYTER: "off" }, soloDir));
  const a = await startSpineServer(loadConfig({ ARGUS_DATA_DIR: sharedDir, ARGUS_JUPYTER: "off", REDIS_URL: redis.url, ARGUS_INSTANCE_ID: "bench-a" }, sharedDir));
  const b = await startSpineServer(loadConfig({ ARGUS_DATA_DIR: sharedDir, ARGUS_JUPYTER: "off", REDIS_URL: redis.url, ARGUS_INSTANCE_ID: "bench-b" }, sharedDir));

  const results = [
    await measure("single instance, in-process adapter (baseline)", solo, solo),
    await measure("REDIS_URL, client on the appending instance", a, a),
    await measure("REDIS_URL, client on the other instance", a, b),
  ];
  console.log(
    "\n" +
      table([
        ["path", "delivered", "lost", "reordered", "p50 ms", "p99 ms"],
        ...results.map((r) => [r.label, r.delivered, r.lost, r.reordered, fmt(r.p50), fmt(r.p99)]),
      ]),
  );
  const [base, , other] = results;
  console.log(`\nother instance vs single instance: p50 +${fmt(other!.p50 - base!.p50)} ms, p99 +${fmt(other!.p99 - base!.p99)} ms; load average ${loadavg()}`);

  await Promise.all([solo.close(), a.close(), b.close()]);
  await redis.close();
  rmSync(soloDir, { recursive: true, force: true });
  rmSync(sharedDir, { recursive: true, force: true });
  const bad = results.filter((r) => r.lost > 0 || r.reordered > 0);
  if (bad.length) console.log(`LOST OR REORDERED EVENTS in: ${bad.map((r) => r.label).join(", ")}`);
  process.exit(bad.length ? 1 : 0);
}

void main();
