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
import { createClient } from "redis";
import { openDatabase } from "@/lib/db/database";
import { appendEventRow } from "@/lib/db/events";
import { percentile } from "../lib/stats";
import type { Cluster } from "./cluster";
import { ENDED, watch, type Watcher } from "./watch";

export interface PathLatency {
  path: string;
  events: number;
  p50: number;
  p99: number;
  max: number;
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
  probes: Probe[];
  loadavg: number[];
}

const summary = (values: number[]) => ({ p50: percentile(values, 50), p99: percentile(values, 99), max: values.length ? Math.max(...values) : NaN });

export async function measureDelivery(cluster: Cluster, load: number): Promise<DeliveryResult> {
  const n = cluster.instances.length;
  const lat = new Map<string, number[]>();
  const record = (path: string, w: Watcher, runId: string) => {
    const list = lat.get(path) ?? [];
    for (const a of w.arrivals) if (a.runId === runId && !a.synced) list.push(a.at - a.stampedAt);
    lat.set(path, list);
  };
  const ended: Record<string, number> = {};
  const probes = startProbes(cluster);
  const loads: number[] = [];
  const loadTimer = setInterval(() => loads.push(os.loadavg()[0]!), 2000);
  try {
    await Promise.all(
      Array.from({ length: load }, async (_, i) => {
        const k = i % n;
        const run = await cluster.prepareRun(k);
        const pages: Array<[string, Watcher]> = [[n > 1 ? "owner instance, direct" : "the one instance, direct", await watch(cluster.instances[k]!.server.url, run.session)]];
        if (n > 1) pages.push(["another instance, direct (through Redis)", await watch(cluster.instances[(k + 1) % n]!.server.url, run.session)]);
        if (cluster.nginx) pages.push(["through nginx (any instance)", await watch(cluster.nginx.url, run.session)]);
        try {
          const runId = await run.post(k);
          await Promise.all(pages.map(([, w]) => w.until(() => w.states.some((s) => s.runId === runId && ENDED.includes(s.agentState)), `run ${runId} ended`)));
          const end = pages[0]![1].states.find((s) => s.runId === runId && ENDED.includes(s.agentState))!;
          ended[end.agentState] = (ended[end.agentState] ?? 0) + 1;
          for (const [path, w] of pages) record(path, w, runId);
        } finally {
          for (const [, w] of pages) w.close();
        }
      }),
    );
  } finally {
    clearInterval(loadTimer);
  }
  return {
    runs: load,
    ended,
    paths: [...lat].map(([path, values]) => ({ path, events: values.length, ...summary(values) })),
    probes: await probes.stop(),
    loadavg: loads,
  };
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
