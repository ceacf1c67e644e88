/**
 * Socket.io fan-out: events appended to the SQLite log (persisted first) and
 * delivered to 50 clients across 10 sessions. Prints p50/p99 latency from
 * append to receipt and sustained throughput, beside a baseline measured in
 * the same run: the same payloads emitted to the same rooms straight through
 * Socket.io, with no persistence. Also checks no event is lost or reordered.
 *
 *   npm run bench:fanout
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { loadConfig } from "@/lib/foundation/config";
import { sessionRoom } from "@/lib/foundation/protocol/socket";
import { createSession } from "@/lib/features/sessions/service";
import { startSpineServer } from "@/scripted-model/spine-server";
import { fmt, percentile, table } from "./lib/stats";

const SESSIONS = 10;
const CLIENTS_PER_SESSION = 5;
const PACED_EVENTS_PER_SESSION = 300;
const BURST_EVENTS_PER_SESSION = 1000;
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Receipt = [client: number, sessionId: string, seq: number, at: number];

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "argus-bench-"));
  const spine = await startSpineServer(loadConfig({ ARGUS_DATA_DIR: dir, ARGUS_JUPYTER: "off" }, dir));
  const sessions = await Promise.all(Array.from({ length: SESSIONS }, () => createSession(spine.core, null)));
  const clients = sessions.flatMap((s) => Array.from({ length: CLIENTS_PER_SESSION }, () => ({ sessionId: s.id, token: s.token })));

  const worker = new Worker(new URL("./fanout-clients.mjs", import.meta.url), {
    workerData: { url: spine.url, clients },
  });
  const request = <T>(type: string, answer: string) =>
    new Promise<T>((resolve) => {
      const on = (m: { type: string }) => {
        if (m.type === answer) {
          worker.off("message", on);
          resolve(m as T);
        }
      };
      worker.on("message", on);
      worker.postMessage({ type });
    });
  await new Promise<void>((resolve) => worker.once("message", (m: { type: string }) => m.type === "ready" && resolve()));

  const seqCounter = new Map(sessions.map((s) => [s.id, 0]));
  const waitFor = async (total: number) => {
    for (;;) {
      const { n } = await request<{ n: number }>("count", "count");
      if (n >= total) return;
      await sleep(5);
    }
  };

  /** One phase: send per the schedule, then pair receipts with send times. */
  async function phase(tag: "ar" | "bl", mode: "paced" | "burst") {
    const perSession = mode === "paced" ? PACED_EVENTS_PER_SESSION : BURST_EVENTS_PER_SESSION;
    const appends: Promise<void>[] = [];
    const sentAt = new Map<string, number>();
    const start = now();
    for (let i = 0; i < perSession; i++) {
      // Appends are async. Paced: each append is awaited before the next is
      // timed, as the synchronous log did (otherwise a round's last append would
      // count the nine before it as its latency). Burst: rounds are not awaited
      // one by one (the log keeps each session's order), only every 100 rounds,
      // where the baseline yields too.
      for (const s of sessions) {
        const t0 = now();
        let seq: number;
        const content = `${tag} ${mode} event ${i} ${"x".repeat(200)}`;
        if (tag === "ar") {
          const appended = spine.core.events
            .append(s.id, { source: "user", agent: "user", action: "message", args: { content } })
            .then((logged) => void sentAt.set(`${s.id}:${logged.event.id!}`, t0));
          if (mode === "paced") await appended;
          else appends.push(appended);
          continue;
        } else {
          // Baseline: the same message shape, emitted without touching the log.
          seq = seqCounter.get(s.id)! + 1_000_000 + i;
          spine.io.to(sessionRoom(s.id)).emit("message", { seq, role: "user", content, item: { type: "user", text: content, media: [] }, runId: null, ts: new Date().toISOString() });
        }
        sentAt.set(`${s.id}:${seq}`, t0);
      }
      // Paced: one event per session per millisecond; burst: yield every 100 rounds only.
      if (mode === "paced") {
        await sleep(1);
      } else if (i % 100 === 99) {
        await Promise.all(appends.splice(0));
        await new Promise((r) => setImmediate(r));
      }
    }
    const expected = perSession * SESSIONS * CLIENTS_PER_SESSION;
    await waitFor(expected);
    const elapsedS = (now() - start) / 1000;
    const { receipts } = await request<{ receipts: Receipt[] }>("drain", "receipts");

    const latencies: number[] = [];
    const lastSeq = new Map<number, number>();
    let reordered = 0;
    for (const [client, sessionId, seq, at] of receipts) {
      const t0 = sentAt.get(`${sessionId}:${seq}`);
      if (t0 === undefined) continue;
      latencies.push(at - t0);
      const prev = lastSeq.get(client);
      if (prev !== undefined && seq <= prev) reordered++;
      lastSeq.set(client, seq);
    }
    const delivered = latencies.length;
    return {
      label: `${tag === "ar" ? "Argus (persist → emit)" : "baseline (emit only)"} ${mode}`,
      events: perSession * SESSIONS,
      delivered,
      lost: expected - delivered,
      reordered,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      eventsPerSec: (perSession * SESSIONS) / elapsedS,
    };
  }

  const results = [];
  for (const mode of ["paced", "burst"] as const) {
    results.push(await phase("bl", mode));
    results.push(await phase("ar", mode));
  }

  console.log(`\nSocket.io fan-out: ${SESSIONS} sessions × ${CLIENTS_PER_SESSION} clients (clients in a worker thread), ${os.cpus().length} cores`);
  console.log(
    table([
      ["run", "events", "deliveries", "lost", "reordered", "p50 ms", "p99 ms", "events/s"],
      ...results.map((r) => [r.label, r.events, r.delivered, r.lost, r.reordered, fmt(r.p50), fmt(r.p99), fmt(r.eventsPerSec, 0)]),
    ]),
  );
  const bad = results.filter((r) => r.lost > 0 || r.reordered > 0);
  if (bad.length) console.log(`\nLOST OR REORDERED EVENTS in: ${bad.map((r) => r.label).join(", ")}`);

  await request("close", "closed");
  await worker.terminate();
  await spine.close();
  rmSync(dir, { recursive: true, force: true });
  process.exit(bad.length ? 1 : 0);
}

void main();
