/** One server under test (a child process on its own data directory), and what is measured on it. */
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROLE_MODELS } from "@/tests/helpers/agent-run";
import { api, startArgus, type RunningServer } from "@/tests/helpers/argus-server";
import { tempDir } from "@/tests/helpers/temp-dir";
import { serverProcessesAsync, statusMemory, type ProcCounts } from "../lib/proc-stats";
import { POOL, remaining, sleep } from "./settings";

export interface World {
  server: RunningServer;
  call: ReturnType<typeof api>;
  pid: number;
  heapFile: string;
  close: () => Promise<void>;
}

/**
 * Loaded into the server process through NODE_OPTIONS (no product code
 * changes): on SIGUSR2 it runs two full GCs (the second frees what weak
 * callbacks released) and writes the live data to a file: every V8 heap space
 * but the code spaces (JIT code keeps growing for a while as more paths get
 * optimised; that is not a leak), plus memory outside the heap (Buffers).
 * RSS alone cannot tell a leak from V8 growing its heap lazily.
 */
const HEAP_PROBE = [
  'import { writeFileSync } from "node:fs";',
  'import { monitorEventLoopDelay } from "node:perf_hooks";',
  'import v8 from "node:v8";',
  // The server's event-loop delay since the last probe, read before the GC below adds its own.
  "const loop = monitorEventLoopDelay({ resolution: 5 });",
  "loop.enable();",
  "if (process.env.ARGUS_BENCH_CPU_PROF) { const { Session } = await import('node:inspector'); const s = new Session(); s.connect(); s.post('Profiler.enable'); s.post('Profiler.start'); globalThis.__benchProfiler = s; }",
  'process.on("SIGUSR2", () => {',
  "  const delay = { p50: loop.percentile(50) / 1e6, p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 };",
  "  loop.reset();",
  // BENCH_CPU_PROF: a CPU profile of the server between two probes, to see what holds its loop.
  "  if (globalThis.__benchProfiler) globalThis.__benchProfiler.post('Profiler.stop', (e, r) => { if (!e) writeFileSync(process.env.ARGUS_BENCH_CPU_PROF + '/server-' + Date.now() + '.cpuprofile', JSON.stringify(r.profile)); globalThis.__benchProfiler.post('Profiler.start'); });",
  "  globalThis.gc?.();",
  "  setImmediate(() => {",
  "    globalThis.gc?.();",
  "    let data = 0, code = 0;",
  "    for (const s of v8.getHeapSpaceStatistics()) {",
  "      if (s.space_name.startsWith(\"code_\")) code += s.space_used_size; else data += s.space_used_size;",
  "    }",
  "    const m = process.memoryUsage();",
  "    writeFileSync(process.env.ARGUS_BENCH_HEAP_FILE, JSON.stringify({ data: data + m.external, code, at: Date.now(), gc: typeof globalThis.gc, delay }));",
  "  });",
  "});",
].join("\n");

export const worlds = new Set<World>();

export async function startWorld(modelUrl: string): Promise<World> {
  const scratch = tempDir("argus-load-");
  const heapFile = path.join(scratch.dir, "bench-heap.json");
  const server = await startArgus({
    dataDir: scratch.dir,
    env: {
      ARGUS_JUPYTER: "auto",
      ARGUS_KERNEL_POOL: String(POOL),
      // As `npm start` runs it (the tests helper turns the preload off).
      ARGUS_KERNEL_PRELOAD: "vision",
      // Twenty sessions at once hold twenty kernels, plus the coders' and the pool.
      ARGUS_MAX_KERNELS: "64",
      OPENAI_BASE_URL: modelUrl,
      OPENAI_API_KEY: "scripted",
      ...ROLE_MODELS,
      NODE_OPTIONS: `--expose-gc --import=data:text/javascript,${encodeURIComponent(HEAP_PROBE)}`,
      ARGUS_BENCH_HEAP_FILE: heapFile,
      ...(process.env.BENCH_CPU_PROF ? { ARGUS_BENCH_CPU_PROF: process.env.BENCH_CPU_PROF } : {}),
    },
  });
  const world: World = {
    server,
    call: api(server.url),
    pid: server.proc.pid!,
    heapFile,
    close: async () => {
      worlds.delete(world);
      await server.kill();
      scratch.cleanup();
    },
  };
  worlds.add(world);
  return world;
}

const procsOf = (w: World) => serverProcessesAsync(w.pid, w.server.dataDir);

export const rssNowKb = (w: World) => statusMemory(w.pid)?.vmRssKb ?? Number.NaN;

/** The server's memory right after a forced full GC (see HEAP_PROBE), in MB; null if it did not answer. */
export interface ServerLoopDelay {
  p50: number;
  p99: number;
  max: number;
}

export async function heapAfterGc(w: World): Promise<{ dataMb: number; codeMb: number; loopDelayMs: ServerLoopDelay } | null> {
  const sent = Date.now();
  process.kill(w.pid, "SIGUSR2");
  const end = sent + 10_000;
  while (Date.now() < end) {
    try {
      const m = JSON.parse(readFileSync(w.heapFile, "utf8")) as { data: number; code: number; at: number; gc: string; delay: ServerLoopDelay };
      if (m.at >= sent) {
        if (m.gc !== "function") throw new Error("the heap probe has no gc(): --expose-gc did not reach the server");
        return { dataMb: m.data / 2 ** 20, codeMb: m.code / 2 ** 20, loopDelayMs: m.delay };
      }
    } catch (error) {
      if (error instanceof Error && error.message.includes("heap probe")) throw error;
      // not written yet, or half written
    }
    await sleep(20);
  }
  return null;
}

/** Polls until the kernel and jupyter counts equal `want` (or the time is up); returns the last count. */
export async function settle(w: World, want: { kernels: number; jupyter: number }, timeoutMs = 30_000): Promise<ProcCounts> {
  const end = Date.now() + Math.min(timeoutMs, Math.max(1000, remaining()));
  for (;;) {
    const c = await procsOf(w);
    if ((c.kernels === want.kernels && c.jupyter === want.jupyter) || Date.now() > end) return c;
    await sleep(250);
  }
}

/** Server RSS every 250 ms, kernel/jupyter processes every 500 ms; keeps the peaks. */
export function startSampler(w: World) {
  const peak = { rssKb: 0, kernels: 0, jupyter: 0, kernelRssKb: 0 };
  let scanning = false;
  let ticks = 0;
  const timer = setInterval(() => {
    peak.rssKb = Math.max(peak.rssKb, statusMemory(w.pid)?.vmRssKb ?? 0);
    if (ticks++ % 2 || scanning) return;
    scanning = true;
    void procsOf(w)
      .then((c) => {
        peak.kernels = Math.max(peak.kernels, c.kernels);
        peak.jupyter = Math.max(peak.jupyter, c.jupyter);
        peak.kernelRssKb = Math.max(peak.kernelRssKb, c.kernelRssKb);
      })
      .finally(() => (scanning = false));
  }, 250);
  return { peak, stop: () => clearInterval(timer) };
}

/**
 * Lines of the server's log that mention an error; the whole log is kept in a
 * file. jupyter-server's known race (GET /api/kernels while a kernel starts
 * fails with "no attribute 'last_activity'", retried by the client; upstream
 * jupyter-server/enterprise_gateway#1395) is counted apart.
 */
export function serverErrors(w: World, phase: string): { lines: string[]; file: string; kernelListRace: number } {
  const text = w.server.output();
  const file = path.join(os.tmpdir(), `argus-bench-load-${phase}.log`);
  writeFileSync(file, text);
  const race = (l: string) => /GET \/api\/kernels\?|wrote error: 'Unhandled error'|no attribute 'last_activity'/.test(l);
  const all = text.split("\n");
  const lines = all.filter((l) => /\berror\b|failed|unhandled|exception/i.test(l) && !/\[I |\[D /.test(l) && !race(l));
  const kernelListRace = all.filter((l) => /\[E .*Uncaught exception GET \/api\/kernels\?/.test(l)).length;
  return { lines, file, kernelListRace };
}

export type ErrorLines = ReturnType<typeof serverErrors>;
