/**
 * Delivery under load: `load` planner runs at once, spread over the instances (each posted to an
 * instance directly, which then owns it). Every run is watched by a page on the instance that owns
 * it, a page on another instance (the event crosses Redis) and a page through nginx (whichever
 * instance nginx picked); the baseline (one instance, no Redis, no nginx) by a page on its one
 * instance. Latency = arrival − the event's stamp (taken just before the database append).
 * Meanwhile probes sample, on the same machine and engines, what each hop costs alone: a
 * database append like Argus's (bench-side, same Postgres), a Redis stream hop (XADD → a blocked
 * XREAD, as the Socket.io adapter does), and each instance's event loop (a Socket.io handshake).
 */
import os from "node:os";
import pg from "pg";
import { createClient } from "redis";
import { openDatabase } from "@/lib/engines/db/database";
import { appendEventRow } from "@/lib/engines/db/events";
import type { TestPostgres } from "@/tests/helpers/postgres";
import { percentile } from "../lib/stats";
import type { Cluster } from "./cluster";
import { ENDED, watch, type Watcher } from "./watch";

export interface PathLatency {
  path: string;
  events: number;
  p50: number;
  p99: number;
  max: number;
  /** From the event's commit in Postgres (track_commit_timestamp) to its arrival: everything after the database. */
  afterCommit: { p50: number; p99: number; max: number };
}

export interface Probe {
  what: string;
  samples: number;
  p50: number;
  p99: number;
  max: number;
}

export interface DeliveryResult {
  runs: number;
  ended: Record<string, number>;
  paths: PathLatency[];
  /** From the event's stamp to its commit: the database append as the writing instance lived it (a pool connection, the transaction). */
  append: { events: number; p50: number; p99: number; max: number };
  probes: Probe[];
  loadavg: number[];
}

const summary = (values: number[]) => ({ p50: percentile(values, 50), p99: percentile(values, 99), max: values.length ? Math.max(...values) : NaN });

export async function measureDelivery(cluster: Cluster, load: number): Promise<DeliveryResult> {
  const n = cluster.instances.length;
  const seen = new Map<string, Array<{ key: string; stampedAt: number; at: number }>>();
  const record = (path: string, w: Watcher, runId: string, sessionId: string) => {
    const list = seen.get(path) ?? [];
    for (const a of w.arrivals) if (a.runId === runId && !a.synced) list.push({ key: `${sessionId}:${a.seq}`, stampedAt: a.stampedAt, at: a.at });
    seen.set(path, list);
  };
  const sessions: string[] = [];
  const ended: Record<string, number> = {};
  const probes = startProbes(cluster);
  const loads: number[] = [];
  const loadTimer = setInterval(() => loads.push(os.loadavg()[0]!), 2000);
  try {
    await Promise.all(
      Array.from({ length: load }, async (_, i) => {
        const k = i % n;
        const run = await cluster.prepareRun(k);
        sessions.push(run.session.id);
        const pages: Array<[string, Watcher]> = [[n > 1 ? "owner instance, direct" : "the one instance, direct", await watch(cluster.instances[k]!.server.url, run.session)]];
        if (n > 1) pages.push(["another instance, direct (through Redis)", await watch(cluster.instances[(k + 1) % n]!.server.url, run.session)]);
        if (cluster.nginx) pages.push(["through nginx (any instance)", await watch(cluster.nginx.url, run.session)]);
        try {
          const runId = await run.post(k);
          await Promise.all(pages.map(([, w]) => w.until(() => w.states.some((s) => s.runId === runId && ENDED.includes(s.agentState)), `run ${runId} ended`)));
          const end = pages[0]![1].states.find((s) => s.runId === runId && ENDED.includes(s.agentState))!;
          ended[end.agentState] = (ended[end.agentState] ?? 0) + 1;
          for (const [path, w] of pages) record(path, w, runId, run.session.id);
        } finally {
          for (const [, w] of pages) w.close();
        }
      }),
    );
  } finally {
    clearInterval(loadTimer);
  }
  const committed = await commitTimes(cluster.databaseUrl, sessions);
  const stampToCommit = new Map<string, number>();
  for (const list of seen.values()) for (const a of list) if (committed.has(a.key)) stampToCommit.set(a.key, committed.get(a.key)! - a.stampedAt);
  const appendTimes = [...stampToCommit.values()];
  return {
    runs: load,
    ended,
    paths: [...seen].map(([path, list]) => ({
      path,
      events: list.length,
      ...summary(list.map((a) => a.at - a.stampedAt)),
      afterCommit: summary(list.filter((a) => committed.has(a.key)).map((a) => a.at - committed.get(a.key)!)),
    })),
    append: { events: appendTimes.length, ...summary(appendTimes) },
    probes: await probes.stop(),
    loadavg: loads,
  };
}

/** When each event of these sessions was committed (ms since the epoch); needs track_commit_timestamp (enableCommitTimes). */
async function commitTimes(databaseUrl: string, sessions: string[]): Promise<Map<string, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ session_id: string; seq: number; committed: number | null }>(
      "SELECT session_id, seq, extract(epoch FROM pg_xact_commit_timestamp(xmin)) * 1000 AS committed FROM events WHERE session_id = ANY($1)",
      [sessions],
    );
    return new Map(rows.filter((r) => r.committed !== null).map((r) => [`${r.session_id}:${r.seq}`, Number(r.committed)]));
  } finally {
    await client.end();
  }
}

/** Turns on Postgres's commit timestamps (a restart): the bench reads when each event was committed. */
export async function enableCommitTimes(postgres: TestPostgres): Promise<void> {
  const client = new pg.Client({ connectionString: postgres.url("postgres") });
  await client.connect();
  try {
    await client.query("ALTER SYSTEM SET track_commit_timestamp = on");
  } finally {
    await client.end();
  }
  await postgres.halt();
  await postgres.start();
}

/** Samples each hop alone, every 100 ms, until stop(). */
function startProbes(cluster: Cluster): { stop(): Promise<Probe[]> } {
  const samples = new Map<string, number[]>();
  const add = (what: string, ms: number) => samples.set(what, [...(samples.get(what) ?? []), ms]);
  let running = true;
  const loops: Promise<void>[] = [];
  const every = async (fn: () => Promise<void>) => {
    while (running) {
      await fn().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  loops.push(
    (async () => {
      const db = await openDatabase(cluster.databaseUrl);
      const probe = await cluster.instances[0]!.call("POST", "/api/sessions");
      const sessionId = (probe.json as { id: string }).id;
      try {
        await every(async () => {
          const t = performance.now();
          await appendEventRow(db, sessionId, (seq, ts) => ({ runId: null, body: JSON.stringify({ id: seq, timestamp: ts, source: "user", observation: "probe" }) }), new Date().toISOString());
          add("database append (bench-side, same Postgres)", performance.now() - t);
        });
      } finally {
        await db.close();
      }
    })(),
  );
  if (cluster.redis) {
    loops.push(
      (async () => {
        const writer = createClient({ url: cluster.redis!.url });
        const reader = writer.duplicate();
        await Promise.all([writer.connect(), reader.connect()]);
        let last = "0-0"; // one entry per sample: read from the last one seen, whichever command Redis gets first
        try {
          await every(async () => {
            const t = performance.now();
            const read = reader.xRead({ key: "bench:probe", id: last }, { BLOCK: 5000, COUNT: 1 });
            await writer.xAdd("bench:probe", "*", { t: String(t) });
            const got = (await read) as Array<{ messages: Array<{ id: string }> }> | null;
            last = got?.[0]?.messages.at(-1)?.id ?? last;
            add("Redis stream hop (XADD → blocked XREAD)", performance.now() - t);
          });
        } finally {
          await Promise.all([writer.quit(), reader.quit()]).catch(() => undefined);
        }
      })(),
    );
  }
  for (const inst of cluster.instances) {
    loops.push(
      every(async () => {
        // engine.io answers a polling handshake itself, before Next.js, with no database or Redis:
        // its round trip is the instance's event loop (plus loopback HTTP).
        const t = performance.now();
        const res = await fetch(`${inst.server.url}/socket.io/?EIO=4&transport=polling`);
        await res.text();
        if (res.ok) add(`event loop of ${inst.id} (Socket.io handshake round trip)`, performance.now() - t);
      }),
    );
  }
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      return [...samples].map(([what, values]) => ({ what, samples: values.length, ...summary(values) }));
    },
  };
}
