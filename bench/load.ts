/**
 * Load and soak against the real server (production build, child process)
 * with real jupyter-server and sandboxed kernels; only the model is scripted.
 *
 *  - Load: 20 sessions at once, each a multi-turn run (conversation → planner
 *    with 3 numpy/cv2 cells → finalize → submit_plan → coder write_code/
 *    write_test in an isolated kernel → conversation), each with its own
 *    Socket.io client. Checks that every run finishes, that every client gets
 *    every message of its session once and in order (against the transcript
 *    from GET /api/sessions/:id) and nothing of another session. Beside it, the
 *    same run alone on the same server (the baseline).
 *  - Soak (a): 200 runs one after another in one session.
 *  - Soak (b): 200 sessions created, used (an upload and one run) and deleted.
 *    In both, runs are conversation replies and every 10th is a planner run
 *    with one cell (so the session kernel and the coder's isolated kernels
 *    come and go too). Both sample the server's RSS after every run and report
 *    its least-squares slope; the leak verdict uses the heap after a forced
 *    full GC (a probe loaded through NODE_OPTIONS, see HEAP_PROBE), since RSS
 *    also moves with V8's lazy heap growth. Both check that kernel and
 *    jupyter-server processes return to their baseline.
 *
 * Each phase runs on a fresh server. The scripted model answers the next
 * unused turn per model name, so concurrent sessions sharing one scenario would
 * take each other's turns: in the load phase every session has its own
 * scripted model, and a small router on loopback sends each request to the
 * model of the session whose tag (e.g. `[load-07]`) the request contains.
 *
 *   npm run bench:load   (needs `npm run build`; npm test does it)
 */
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { io as connect, type Socket } from "socket.io-client";
import sharp from "sharp";
import { startScriptedModel, type Scenario, type ScriptedModel } from "@/scripted-model/server";
import type { StreamedMessage } from "@/lib/protocol/agent-message";
import type { RunStateWire } from "@/lib/runtime/state-wire";
import { ROLE_MODELS } from "@/tests/helpers/agent-run";
import { api, startArgus, type RunningServer } from "@/tests/helpers/argus-server";
import { tempDir } from "@/tests/helpers/temp-dir";
import { serverProcessesAsync, slope, statusMemory, type ProcCounts } from "./lib/proc-stats";
import { fmt, percentile, table } from "./lib/stats";

const int = (name: string, fallback: number) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(v) || v < 1) throw new Error(`${name} must be a positive whole number`);
  return v;
};
const LOAD_SESSIONS = int("BENCH_LOAD_SESSIONS", 20);
const SOAK_RUNS = int("BENCH_SOAK_RUNS", 200);
const SOAK_SESSIONS = int("BENCH_SOAK_SESSIONS", 200);
const WARMUP = 20;
/** In both soaks every 10th run is a planner run (one cell, plus the coder's isolated kernel). */
const KERNEL_EVERY = 10;
const POOL = 4;
/** A soak whose heap after a full GC grows faster than this is flagged. */
const LEAK_MB_PER_100 = 1;
const TOTAL_BUDGET_MS = 14 * 60_000;

const TERMINAL = ["finished", "stopped", "error", "rejected", "interrupted"];
const startedAt = Date.now();
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const remaining = () => startedAt + TOTAL_BUDGET_MS - Date.now();
const mb = (kb: number | null | undefined) => (kb == null ? Number.NaN : kb / 1024);
const log = (line: string) => console.log(`[${((Date.now() - startedAt) / 1000).toFixed(0).padStart(4)}s] ${line}`);

// ---------------------------------------------------------------- scenarios

type Turn = Scenario["turns"][number];
const tool = (model: string, name: string, args: unknown, contains?: string | string[]): Turn => ({
  model,
  toolCalls: [{ name, args }],
  ...(contains ? { expect: { contains } } : {}),
});

const CELL_COUNT = [
  "import cv2, numpy as np",
  "img = cv2.imread('shapes.png', cv2.IMREAD_GRAYSCALE)",
  "_, bw = cv2.threshold(img, 127, 255, cv2.THRESH_BINARY)",
  "n, labels, stats, centroids = cv2.connectedComponentsWithStats(bw)",
  "areas = stats[1:, cv2.CC_STAT_AREA]",
  "print('blobs:', n - 1)",
].join("\n");
const CELL_MEASURE = [
  "r = np.sqrt(areas / np.pi)",
  "print('mean radius: %.1f px' % r.mean())",
  "print('largest area:', int(areas.max()), 'px')",
].join("\n");
const CELL_OVERLAY = [
  "overlay = cv2.cvtColor(img, cv2.COLOR_GRAY2RGB)",
  "for x, y, w, h, _ in stats[1:]:",
  "    cv2.rectangle(overlay, (int(x), int(y)), (int(x + w), int(y + h)), (255, 0, 0), 2)",
  "view_image(overlay, title='blobs')",
  "print('boxes drawn:', len(stats) - 1)",
].join("\n");
const FUNCTION = [
  "import cv2",
  "",
  "",
  "def count_blobs(image_path):",
  '    """Counts the bright blobs in an image."""',
  "    img = cv2.imread(image_path, cv2.IMREAD_GRAYSCALE)",
  "    _, bw = cv2.threshold(img, 127, 255, cv2.THRESH_BINARY)",
  "    n, _ = cv2.connectedComponents(bw)",
  "    return n - 1",
].join("\n");

/**
 * One planner run. `tag` is in the person's message, so it is in every
 * conversation and planner request; the plan carries it into the coder's.
 * The expectations check that each observation is this session's own result.
 */
function plannerRun(tag: string, blobs: number, cells: 1 | 3): Turn[] {
  const exploring: Turn[] = [tool("planner", "execute_python", { thinking: "Threshold and label the blobs.", code: CELL_COUNT }, tag)];
  if (cells === 3) {
    exploring.push(tool("planner", "execute_python", { thinking: "Measure them.", code: CELL_MEASURE }, `blobs: ${blobs}`));
    exploring.push(tool("planner", "execute_python", { thinking: "Look at the boxes.", code: CELL_OVERLAY }, "mean radius"));
  }
  return [
    tool("conversation", "reply", { response: "Let me count them.", action: "generate_or_edit_vision_code" }, tag),
    ...exploring,
    tool("planner", "finalize_plan", { thinking: `Every blob is found once: ${blobs}.` }, cells === 3 ? `boxes drawn: ${blobs}` : `blobs: ${blobs}`),
    tool("planner", "submit_plan", {
      plan: `${tag} Threshold at 127 and count connected components: ${blobs} blobs.`,
      instructions: ["read the image as grayscale", "threshold at 127", "count connected components minus the background"],
      code: FUNCTION,
    }),
    tool("coder", "write_code", { code: FUNCTION }, tag),
    tool("coder", "write_test", { test: "print('count:', count_blobs('shapes.png'))" }, tag),
    tool("conversation", "reply", { response: `There are **${blobs} blobs**.` }, [tag, `count: ${blobs}`]),
  ];
}

function chatRun(tag: string, marker: string): Turn[] {
  return [tool("conversation", "reply", { response: `Noted ${marker}.` }, [tag, marker])];
}

const scenario = (name: string, turns: Turn[]): Scenario => ({ name, turns }) as Scenario;

/** `count` white discs on black, one per cell of a 6×4 grid. */
async function shapesPng(count: number, seed: number): Promise<Buffer> {
  const circles = Array.from({ length: count }, (_, j) => {
    const cell = (j * 7 + seed) % 24;
    const cx = (cell % 6) * 80 + 40;
    const cy = Math.floor(cell / 6) * 80 + 40;
    return `<circle cx="${cx}" cy="${cy}" r="${12 + ((j + seed) % 3) * 8}" fill="white"/>`;
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="320"><rect width="480" height="320" fill="black"/>${circles.join("")}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

// ---------------------------------------------------------------- model router

/** Sends each chat request to the scripted model of the session tagged in it. */
async function startRouter(pick: (body: string) => ScriptedModel | undefined): Promise<{ url: string; server: Server; unrouted: () => number }> {
  let unrouted = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const target = pick(body.toString("utf8"));
      if (!target) {
        unrouted++;
        res.writeHead(400, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "bench router: no session tag in the request", type: "invalid_request_error" } }));
        return;
      }
      const up = httpRequest(
        { host: "127.0.0.1", port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: `127.0.0.1:${target.port}`, "content-length": String(body.length) } },
        (upRes) => {
          res.writeHead(upRes.statusCode ?? 502, upRes.headers);
          upRes.pipe(res);
        },
      );
      up.on("error", () => {
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      up.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server, unrouted: () => unrouted };
}

// ---------------------------------------------------------------- server and sampler

interface World {
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
  'import v8 from "node:v8";',
  'process.on("SIGUSR2", () => {',
  "  globalThis.gc?.();",
  "  setImmediate(() => {",
  "    globalThis.gc?.();",
  "    let data = 0, code = 0;",
  "    for (const s of v8.getHeapSpaceStatistics()) {",
  "      if (s.space_name.startsWith(\"code_\")) code += s.space_used_size; else data += s.space_used_size;",
  "    }",
  "    const m = process.memoryUsage();",
  "    writeFileSync(process.env.ARGUS_BENCH_HEAP_FILE, JSON.stringify({ data: data + m.external, code, at: Date.now(), gc: typeof globalThis.gc }));",
  "  });",
  "});",
].join("\n");

const worlds = new Set<World>();

async function startWorld(modelUrl: string): Promise<World> {
  const scratch = tempDir("argus-load-");
  const heapFile = path.join(scratch.dir, "bench-heap.json");
  const server = await startArgus({
    dataDir: scratch.dir,
    env: {
      ARGUS_JUPYTER: "auto",
      ARGUS_KERNEL_POOL: String(POOL),
      // Twenty sessions at once hold twenty kernels, plus the coders' and the pool.
      ARGUS_MAX_KERNELS: "64",
      OPENAI_BASE_URL: modelUrl,
      OPENAI_API_KEY: "scripted",
      ...ROLE_MODELS,
      NODE_OPTIONS: `--expose-gc --import=data:text/javascript,${encodeURIComponent(HEAP_PROBE)}`,
      ARGUS_BENCH_HEAP_FILE: heapFile,
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
const rssNowKb = (w: World) => statusMemory(w.pid)?.vmRssKb ?? Number.NaN;

/** The server's memory right after a forced full GC (see HEAP_PROBE), in MB; null if it did not answer. */
async function heapAfterGc(w: World): Promise<{ dataMb: number; codeMb: number } | null> {
  const sent = Date.now();
  process.kill(w.pid, "SIGUSR2");
  const end = sent + 10_000;
  while (Date.now() < end) {
    try {
      const m = JSON.parse(readFileSync(w.heapFile, "utf8")) as { data: number; code: number; at: number; gc: string };
      if (m.at >= sent) {
        if (m.gc !== "function") throw new Error("the heap probe has no gc(): --expose-gc did not reach the server");
        return { dataMb: m.data / 2 ** 20, codeMb: m.code / 2 ** 20 };
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
async function settle(w: World, want: { kernels: number; jupyter: number }, timeoutMs = 30_000): Promise<ProcCounts> {
  const end = Date.now() + Math.min(timeoutMs, Math.max(1000, remaining()));
  for (;;) {
    const c = await procsOf(w);
    if ((c.kernels === want.kernels && c.jupyter === want.jupyter) || Date.now() > end) return c;
    await sleep(250);
  }
}

/** Server RSS every 250 ms, kernel/jupyter processes every 500 ms; keeps the peaks. */
function startSampler(w: World) {
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

// ---------------------------------------------------------------- sessions and sockets

interface Session {
  id: string;
  token: string;
}

interface Received {
  m: StreamedMessage;
  at: number;
}

class Watch {
  readonly received: Received[] = [];
  readonly states: RunStateWire[] = [];
  private constructor(readonly socket: Socket) {
    socket.on("message", (m: StreamedMessage) => this.received.push({ m, at: now() }));
    socket.on("state", (s: RunStateWire) => this.states.push(s));
  }

  static async open(url: string, s: Session): Promise<Watch> {
    const socket = connect(url, { auth: { sessionId: s.id, token: s.token }, transports: ["websocket"], forceNew: true, reconnection: false });
    const watch = new Watch(socket);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("socket did not connect in 15 s")), 15_000);
      socket.once("connect", () => (clearTimeout(timer), resolve()));
      socket.once("connect_error", (e) => (clearTimeout(timer), reject(e)));
    });
    return watch;
  }

  /** The run's terminal state, or a timeout (bounded by the benchmark's budget). */
  async until(runId: string, timeoutMs: number): Promise<string> {
    const end = Date.now() + Math.min(timeoutMs, Math.max(1000, remaining()));
    for (;;) {
      const hit = this.states.find((s) => s.runId === runId && TERMINAL.includes(s.agentState));
      if (hit) return hit.agentState;
      if (Date.now() > end) return `timeout (last: ${this.states.filter((s) => s.runId === runId).at(-1)?.agentState ?? "none"})`;
      await sleep(20);
    }
  }

  close() {
    this.socket.close();
  }
}

async function createSession(w: World): Promise<Session> {
  const res = await w.call("POST", "/api/sessions", { body: {} });
  if (res.status !== 201) throw new Error(`create session: ${res.status} ${res.text}`);
  return res.json as Session;
}

async function upload(w: World, s: Session, png: Buffer, name: string): Promise<string> {
  const form = new FormData();
  form.set("file", new Blob([png as BlobPart]), name);
  const res = await w.call("POST", `/api/sessions/${s.id}/uploads`, { token: s.token, raw: form });
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${res.text}`);
  return (res.json as { id: string }).id;
}

async function post(w: World, s: Session, content: string, media?: string[]): Promise<string> {
  const res = await w.call("POST", `/api/sessions/${s.id}/messages`, { token: s.token, body: { role: "user", content, ...(media ? { media } : {}) } });
  if (res.status !== 202) throw new Error(`post message: ${res.status} ${res.text}`);
  return (res.json as { runId: string }).runId;
}

async function remove(w: World, s: Session): Promise<void> {
  const res = await w.call("DELETE", `/api/sessions/${s.id}`, { token: s.token });
  if (res.status !== 204) throw new Error(`delete session: ${res.status} ${res.text}`);
}

interface Delivery {
  transcript: number;
  received: number;
  missing: number;
  duplicates: number;
  outOfOrder: number;
  /** Received messages that are not this session's (wrong run, content or another session's tag). */
  foreign: number;
}

/**
 * Compares what the socket received with the transcript. Waits (bounded) for
 * the tail of the stream, since `finished` may be read before the last message
 * is parsed.
 */
async function checkDelivery(w: World, s: Session, watch: Watch, runIds: Set<string>, tag: string, allTags: RegExp): Promise<Delivery> {
  const res = await w.call("GET", `/api/sessions/${s.id}`, { token: s.token });
  const transcript = (res.json?.messages ?? []) as StreamedMessage[];
  const end = Date.now() + 3000;
  while (watch.received.length < transcript.length && Date.now() < end) await sleep(20);
  const bySeq = new Map(transcript.map((m) => [m.seq, m]));
  const seen = new Map<number, number>();
  let outOfOrder = 0;
  let foreign = 0;
  let last = -1;
  for (const { m } of watch.received) {
    seen.set(m.seq, (seen.get(m.seq) ?? 0) + 1);
    if (m.seq <= last) outOfOrder++;
    last = Math.max(last, m.seq);
    const mine = bySeq.get(m.seq);
    const otherTag = [...m.content.matchAll(allTags)].some((x) => x[0] !== tag);
    if (!mine || mine.content !== m.content || mine.runId !== m.runId || (m.runId !== null && !runIds.has(m.runId)) || otherTag) foreign++;
  }
  return {
    transcript: transcript.length,
    received: watch.received.length,
    missing: transcript.filter((m) => !seen.has(m.seq)).length,
    duplicates: [...seen.values()].reduce((n, c) => n + (c > 1 ? c - 1 : 0), 0),
    outOfOrder,
    foreign,
  };
}

const addDelivery = (a: Delivery, b: Delivery): Delivery => ({
  transcript: a.transcript + b.transcript,
  received: a.received + b.received,
  missing: a.missing + b.missing,
  duplicates: a.duplicates + b.duplicates,
  outOfOrder: a.outOfOrder + b.outOfOrder,
  foreign: a.foreign + b.foreign,
});
const NO_DELIVERY: Delivery = { transcript: 0, received: 0, missing: 0, duplicates: 0, outOfOrder: 0, foreign: 0 };
const deliveryOk = (d: Delivery) => d.missing === 0 && d.duplicates === 0 && d.outOfOrder === 0 && d.foreign === 0 && d.received === d.transcript;

const latenciesOf = (watch: Watch) => watch.received.map(({ m, at }) => at - Date.parse(m.ts));

/**
 * Lines of the server's log that mention an error; the whole log is kept in a
 * file. jupyter-server's known race (GET /api/kernels while a kernel starts
 * fails with "no attribute 'last_activity'", retried by the client; upstream
 * jupyter-server/enterprise_gateway#1395) is counted apart.
 */
function serverErrors(w: World, phase: string): { lines: string[]; file: string; kernelListRace: number } {
  const text = w.server.output();
  const file = path.join(os.tmpdir(), `argus-bench-load-${phase}.log`);
  writeFileSync(file, text);
  const race = (l: string) => /GET \/api\/kernels\?|wrote error: 'Unhandled error'|no attribute 'last_activity'/.test(l);
  const all = text.split("\n");
  const lines = all.filter((l) => /\berror\b|failed|unhandled|exception/i.test(l) && !/\[I |\[D /.test(l) && !race(l));
  const kernelListRace = all.filter((l) => /\[E .*Uncaught exception GET \/api\/kernels\?/.test(l)).length;
  return { lines, file, kernelListRace };
}

// ---------------------------------------------------------------- load

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
  /** This process's own event-loop delay p99 while the runs went (ms): how much of the latency is the clients'. */
  clientLoopP99: number;
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

type ErrorLines = ReturnType<typeof serverErrors>;

async function loadPhase(): Promise<{ solo: LoadResult; load: LoadResult; errors: ErrorLines }> {
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
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
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
    loop.disable();
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
      clientLoopP99: loop.percentile(99) / 1e6,
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

// ---------------------------------------------------------------- soaks

interface SoakResult {
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
async function soakRuns(): Promise<SoakResult> {
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
async function soakSessions(): Promise<SoakResult> {
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

// ---------------------------------------------------------------- report

/**
 * The verdict is judged on the heap after a forced full GC: what the server
 * still holds. The RSS slope is printed beside it; V8 grows its heap lazily and
 * returns memory to the OS late, so RSS climbs for a while without a leak.
 */
function leakVerdict(r: SoakResult): string {
  if (!Number.isFinite(r.heapSlopeMbPer100)) return "leak not judged: the heap probe did not answer";
  return r.heapSlopeMbPer100 > LEAK_MB_PER_100 ? `possible leak: +${fmt(r.heapSlopeMbPer100, 1)} MB per 100 ${r.units}` : "no leak";
}

function verdict(r: SoakResult): string {
  const back = r.procsAfter.kernels === r.procsBefore.kernels && r.procsAfter.jupyter === r.procsBefore.jupyter;
  const mem = leakVerdict(r);
  const procs = back
    ? `processes back to baseline (${r.procsAfter.kernels} kernels, ${r.procsAfter.jupyter} jupyter-server)`
    : `PROCESSES NOT BACK TO BASELINE: ${r.procsAfter.kernels} kernels / ${r.procsAfter.jupyter} jupyter-server vs ${r.procsBefore.kernels} / ${r.procsBefore.jupyter} before`;
  return `${r.label}: ${mem} (live heap after GC ${fmt(r.heapSlopeMbPer100, 2)} MB per 100 ${r.units}, threshold ${LEAK_MB_PER_100}; RSS slope ${fmt(r.slopeMbPer100, 1)}); ${procs}`;
}

const delivered = (d: Delivery) =>
  deliveryOk(d) ? `${d.received}/${d.transcript} ok` : `${d.received}/${d.transcript}: missing ${d.missing}, dup ${d.duplicates}, reordered ${d.outOfOrder}, foreign ${d.foreign}`;

async function main() {
  const watchdog = setTimeout(() => {
    console.error("\nbench:load: over its time budget; stopping");
    void Promise.all([...worlds].map((w) => w.close())).finally(() => process.exit(2));
  }, TOTAL_BUDGET_MS + 45_000);
  watchdog.unref();
  for (const sig of ["SIGINT", "SIGTERM"] as const) {
    process.once(sig, () => void Promise.all([...worlds].map((w) => w.close())).finally(() => process.exit(130)));
  }

  log(`bench:load on ${os.cpus().length} cores, ${fmt(os.totalmem() / 2 ** 30, 0)} GB; ARGUS_KERNEL_POOL=${POOL}`);
  const { solo, load, errors: loadErrors } = await loadPhase();
  const a = await soakRuns();
  log(`soak (a): ${a.finished}/${a.runs} finished in ${fmt(a.wallS, 0)} s`);
  const b = await soakSessions();
  log(`soak (b): ${b.finished}/${b.runs} finished in ${fmt(b.wallS, 0)} s`);
  const totalS = (Date.now() - startedAt) / 1000;

  console.log(`\nLoad: ${LOAD_SESSIONS} sessions at once, each conversation → planner (3 numpy/cv2 cells, one view_image) → finalize → submit_plan → coder (isolated kernel) → conversation;`);
  console.log(`one Socket.io client per session; ARGUS_KERNEL_POOL=${POOL}; ${os.cpus().length} cores. Baseline: the same run alone on the same server.`);
  console.log(
    table([
      ["measure", `${LOAD_SESSIONS} sessions at once`, "1 session alone"],
      ["runs finished", `${load.finished}/${load.sessions}`, `${solo.finished}/${solo.sessions}`],
      ["wall time, s", fmt(load.wallS, 1), fmt(solo.wallS, 1)],
      ["runs per minute", fmt(load.runsPerMin, 1), fmt(solo.runsPerMin, 1)],
      ["run duration p50 / p99, s", `${fmt(load.runP50, 1)} / ${fmt(load.runP99, 1)}`, `${fmt(solo.runP50, 1)} / ${fmt(solo.runP99, 1)}`],
      ["event append → client, p50 / p99 ms", `${fmt(load.latP50, 0)} / ${fmt(load.latP99, 0)}`, `${fmt(solo.latP50, 0)} / ${fmt(solo.latP99, 0)}`],
      ["  benchmark's own event-loop delay p99, ms", fmt(load.clientLoopP99, 0), fmt(solo.clientLoopP99, 0)],
      ["messages delivered (vs transcript)", delivered(load.delivery), delivered(solo.delivery)],
      ["peak server RSS, MB", fmt(load.peakRssMb, 0), fmt(solo.peakRssMb, 0)],
      ["peak kernels (pool included)", `${load.peakKernels}`, `${solo.peakKernels}`],
      ["peak summed kernel RSS, MB", fmt(load.peakKernelRssMb, 0), fmt(solo.peakKernelRssMb, 0)],
      ["kernels after deleting the sessions", `${load.afterDeleteKernels} (pool ${load.baselineKernels})`, `${solo.afterDeleteKernels} (pool ${solo.baselineKernels})`],
    ]),
  );
  if (load.finished < load.sessions) console.log(`run states under load: ${JSON.stringify(load.states)}`);

  console.log(`\nSoaks (fresh server each; every ${KERNEL_EVERY}th run is a planner run with one cell and the coder's isolated kernel; ${WARMUP} warm-up ${"runs/sessions"} not counted):`);
  console.log(
    table([
      ["measure", `(a) ${a.runs} runs in one session`, `(b) ${b.runs} sessions created, used, deleted`],
      ["finished", `${a.finished}/${a.runs}`, `${b.finished}/${b.runs}`],
      ["wall time, s", fmt(a.wallS, 0), fmt(b.wallS, 0)],
      ["server RSS before / after warm-up / end / after (GC, cleanup), MB", [a.rssBeforeMb, a.rssAfterWarmupMb, a.rssEndMb, a.rssAfterMb].map((x) => fmt(x, 0)).join(" / "), [b.rssBeforeMb, b.rssAfterWarmupMb, b.rssEndMb, b.rssAfterMb].map((x) => fmt(x, 0)).join(" / ")],
      ["RSS slope, least squares, MB per 100 (RssAnon)", `${fmt(a.slopeMbPer100, 2)} (${fmt(a.anonSlopeMbPer100, 2)})`, `${fmt(b.slopeMbPer100, 2)} (${fmt(b.anonSlopeMbPer100, 2)})`],
      ["live heap after full GC (no JIT code), after warm-up → end, MB (per 100)", `${fmt(a.heapFirstMb, 1)} → ${fmt(a.heapLastMb, 1)} (${fmt(a.heapSlopeMbPer100, 2)})`, `${fmt(b.heapFirstMb, 1)} → ${fmt(b.heapLastMb, 1)} (${fmt(b.heapSlopeMbPer100, 2)})`],
      ["peak server RSS, MB", fmt(a.peak.rssMb, 0), fmt(b.peak.rssMb, 0)],
      ["kernels before / peak / after", `${a.procsBefore.kernels} / ${a.peak.kernels} / ${a.procsAfter.kernels}`, `${b.procsBefore.kernels} / ${b.peak.kernels} / ${b.procsAfter.kernels}`],
      ["jupyter-server before / peak / after", `${a.procsBefore.jupyter} / ${a.peak.jupyter} / ${a.procsAfter.jupyter}`, `${b.procsBefore.jupyter} / ${b.peak.jupyter} / ${b.procsAfter.jupyter}`],
      ["messages delivered (vs transcript)", delivered(a.delivery), delivered(b.delivery)],
    ]),
  );
  console.log("");
  console.log(verdict(a));
  console.log(verdict(b));
  for (const r of [a, b]) if (r.failures.length) console.log(`${r.label} failures (${r.failures.length}): ${r.failures.slice(0, 5).join("; ")}`);

  for (const [phase, e] of [["load", loadErrors], [a.label, a.errors], [b.label, b.errors]] as const) {
    if (e.lines.length) console.log(`\n${phase}: ${e.lines.length} server log lines mention an error (whole log: ${e.file}), e.g.:\n  ${e.lines.slice(0, 4).join("\n  ")}`);
    if (e.kernelListRace) console.log(`${phase}: jupyter-server's GET /api/kernels race while a kernel starts (upstream; the client retries): ${e.kernelListRace}×`);
  }

  console.log(`\nAll figures (bench:load, ${fmt(totalS / 60, 1)} min):`);
  console.log(
    table([
      ["figure", "value"],
      [`load: runs finished (${LOAD_SESSIONS} at once)`, `${load.finished}/${load.sessions}`],
      ["load: runs per minute (alone)", `${fmt(load.runsPerMin, 1)} (${fmt(solo.runsPerMin, 1)})`],
      ["load: event → client p50 / p99 ms (alone)", `${fmt(load.latP50, 0)} / ${fmt(load.latP99, 0)} (${fmt(solo.latP50, 0)} / ${fmt(solo.latP99, 0)})`],
      ["load: delivery", delivered(load.delivery)],
      ["load: peak server RSS MB (alone)", `${fmt(load.peakRssMb, 0)} (${fmt(solo.peakRssMb, 0)})`],
      [`load: peak kernels, ARGUS_KERNEL_POOL=${POOL}`, `${load.peakKernels} (${fmt(load.peakKernelRssMb / 1024, 1)} GB summed RSS)`],
      ["soak (a): RSS slope MB/100 runs (live heap after GC)", `${fmt(a.slopeMbPer100, 2)} (${fmt(a.heapSlopeMbPer100, 2)})`],
      ["soak (a): verdict", leakVerdict(a)],
      ["soak (a): kernels / jupyter before → after", `${a.procsBefore.kernels}/${a.procsBefore.jupyter} → ${a.procsAfter.kernels}/${a.procsAfter.jupyter}`],
      ["soak (b): RSS slope MB/100 sessions (live heap after GC)", `${fmt(b.slopeMbPer100, 2)} (${fmt(b.heapSlopeMbPer100, 2)})`],
      ["soak (b): verdict", leakVerdict(b)],
      ["soak (b): kernels / jupyter before → after", `${b.procsBefore.kernels}/${b.procsBefore.jupyter} → ${b.procsAfter.kernels}/${b.procsAfter.jupyter}`],
      ["runtime", `${fmt(totalS, 0)} s`],
    ]),
  );

  const ok =
    load.finished === load.sessions &&
    solo.finished === solo.sessions &&
    deliveryOk(load.delivery) &&
    deliveryOk(solo.delivery) &&
    a.failures.length === 0 &&
    b.failures.length === 0 &&
    deliveryOk(a.delivery) &&
    deliveryOk(b.delivery);
  process.exit(ok ? 0 : 1);
}

void main().catch(async (error: unknown) => {
  console.error(error);
  await Promise.all([...worlds].map((w) => w.close()));
  process.exit(1);
});
