/**
 * Run overhead: the count-coins scenario end to end through the public interface (HTTP upload
 * and message, Socket.io until the run's `finished` state), with the scripted model answering
 * instantly, so what is left is Argus's own plumbing plus the cells' real work.
 *
 * Beside each run's wall time, the floor: the run's cells (the planner's watershed cell and the
 * coder's code + test cell) timed inside a raw kernel with the vision stack imported
 * (bench/cell_floor.py), so transport, model calls and scheduling are not in it.
 * Target: p50 wall ≤ 1.5 × floor + 300 ms.
 *
 * Three servers in one run: Argus as configured by default (ARGUS_KERNEL_PRELOAD=vision), the same
 * with the pool refilling at once instead of after the run's cells (ARGUS_POOL_REFILL_QUIET_MS=0), and,
 * for comparison, the same with ARGUS_KERNEL_PRELOAD=none (cold imports in the cells). Before
 * each run the bench waits until the pool is full again (GET /api/health `kernels`), as it is
 * when a person's next message comes seconds later; that wait is printed, not counted.
 *
 *   npm run bench:run   (needs a build: `bash scripts/ensure-build.sh`)
 *   BENCH_RUNS=20 BENCH_RUNS_AT_ONCE=20 BENCH_RUNS_COLD=5
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadScenario, startScriptedModel, type ScriptedModel } from "@/scripted-model/server";
import { PYTHON_DIR } from "@/lib/server/argus-core";
import { coinsPng, ROLE_MODELS, scenarioPath, watchSession } from "@/tests/helpers/agent-run";
import { api, startArgus, type RunningServer } from "@/tests/helpers/argus-server";
import { tempDir } from "@/tests/helpers/temp-dir";
import { fmt, percentile, table } from "./lib/stats";

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const RUNS_COLD = Number(process.env.BENCH_RUNS_COLD ?? 5);
/** Runs with the pool refilling at once (ARGUS_POOL_REFILL_QUIET_MS=0), as before the refill schedule: a server of their own, alternating with the default's runs. */
const RUNS_AT_ONCE = Number(process.env.BENCH_RUNS_AT_ONCE ?? RUNS);
const POOL = 2;
/** The first run's turns of the count-coins scenario (the rest is the "edit code" follow-up). */
const RUN_TURNS = 7;
const CODER_PRELUDE = "from argus import *\n";

const scenario = loadScenario(scenarioPath("count-coins.json"));
const turns = scenario.turns.slice(0, RUN_TURNS);
type Args = Record<string, string>;
const argsOf = (i: number, name: string) => turns[i]!.toolCalls!.find((c) => c.name === name)!.args as Args;
/** The two cells a run executes, exactly as the planner and the coder send them. */
const CELLS = [argsOf(1, "execute_python").code!, `${CODER_PRELUDE}${argsOf(4, "write_code").code}\n\n# --- test ---\n${argsOf(5, "write_test").test}`];

const loadavg = () => os.loadavg().map((n) => n.toFixed(2)).join(" ");

function cellFloor(coinsPath: string): Promise<{ first_ms: number[]; median_ms: number[] }> {
  return new Promise((resolve, reject) => {
    const child = execFile("/usr/bin/python3", [path.join(import.meta.dirname, "cell_floor.py")], { maxBuffer: 1 << 20 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout.trim().split("\n").at(-1)!)),
    );
    child.stdin!.end(JSON.stringify({ cells: CELLS, files: { "coins.png": coinsPath }, repeats: 5, package_dir: PYTHON_DIR }));
  });
}

interface PhaseResult {
  label: string;
  walls: number[];
  waits: number[];
  warmup: number;
}

async function poolFull(call: ReturnType<typeof api>): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    const k = (await call("GET", "/api/health")).json.kernels as { pooled: number; poolSize: number } | undefined;
    if (!k || k.pooled >= k.poolSize) return performance.now() - t0;
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function oneRun(server: RunningServer, model: ScriptedModel, png: Buffer): Promise<number> {
  const call = api(server.url);
  model.load({ name: "count coins (one run)", turns });
  const session = (await call("POST", "/api/sessions")).json as { id: string; token: string };
  const form = new FormData();
  form.set("file", new Blob([png as BlobPart]), "coins.png");
  const upload = await call("POST", `/api/sessions/${session.id}/uploads`, { token: session.token, raw: form });
  if (upload.status !== 201) throw new Error(`upload: ${upload.status} ${upload.text}`);
  const watch = await watchSession(server.url, session);
  try {
    const t0 = performance.now();
    const posted = await call("POST", `/api/sessions/${session.id}/messages`, {
      token: session.token,
      body: { role: "user", content: "How many coins are on the table?", media: [(upload.json as { id: string }).id] },
    });
    if (posted.status !== 202) throw new Error(`message: ${posted.status} ${posted.text}`);
    const end = await watch.until(["finished", "error", "stopped"], 120_000, posted.json.runId as string);
    const wall = performance.now() - t0;
    if (end.agentState !== "finished") throw new Error(`the run ended ${end.agentState}`);
    if (process.env.BENCH_TRACE) {
      // Where the time went: each message's server timestamp from the moment the message was posted.
      const start = Date.now() - wall;
      for (const m of watch.messages) console.log(`    +${fmt(Date.parse(String(m.ts)) - start, 0)} ms ${m.role}: ${String(m.content).slice(0, 60).replace(/\n/g, " ")}`);
    }
    return wall;
  } finally {
    watch.socket.disconnect();
  }
}

interface OpenPhase extends PhaseResult {
  server: RunningServer;
  call: ReturnType<typeof api>;
  close: () => Promise<void>;
}

/** A server of its own for one configuration, started, its pool full, one warm-up run done. */
async function openPhase(label: string, preload: "vision" | "none", model: ScriptedModel, png: Buffer, env: Record<string, string> = {}): Promise<OpenPhase> {
  const scratch = tempDir("argus-bench-run-");
  const server = await startArgus({
    dataDir: scratch.dir,
    env: { ARGUS_JUPYTER: "auto", ARGUS_KERNEL_POOL: String(POOL), ARGUS_KERNEL_PRELOAD: preload, OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "scripted", ...ROLE_MODELS, ...env },
  });
  const call = api(server.url);
  await poolFull(call);
  const warmup = await oneRun(server, model, png);
  return {
    label,
    server,
    call,
    walls: [],
    waits: [],
    warmup,
    close: async () => {
      await server.kill();
      scratch.cleanup();
    },
  };
}

/** One run on `phase`, once every open server's pool is full (so no server's refill competes with it). */
async function runOn(phase: OpenPhase, all: OpenPhase[], model: ScriptedModel, png: Buffer, n: number, of: number): Promise<void> {
  const t0 = performance.now();
  for (const p of all) await poolFull(p.call);
  phase.waits.push(performance.now() - t0);
  phase.walls.push(await oneRun(phase.server, model, png));
  console.log(`  ${phase.label} run ${n}/${of}: ${fmt(phase.walls.at(-1)!, 0)} ms (load ${loadavg()})`);
}

async function main() {
  console.log(`bench:run — count coins end to end, ${RUNS} runs (+${RUNS_COLD} without preload); load average ${loadavg()}, ${os.cpus().length} cores`);
  const scratch = tempDir("argus-bench-coins-");
  const png = await coinsPng();
  const coinsPath = path.join(scratch.dir, "coins.png");
  writeFileSync(coinsPath, png);
  const floor = await cellFloor(coinsPath);
  const floorMs = floor.median_ms.reduce((a, b) => a + b, 0);
  console.log(`floor: cells inside a warm kernel, median of 5: ${floor.median_ms.map((n) => fmt(n, 1)).join(" + ")} = ${fmt(floorMs, 1)} ms (first run ${floor.first_ms.map((n) => fmt(n, 1)).join(" + ")})`);

  const model = await startScriptedModel(scenario);
  const results: PhaseResult[] = [];
  try {
    // The default and refilling-at-once run alternately, so the machine's load changes hit both alike.
    const byDefault = await openPhase("Argus (preload vision)", "vision", model, png);
    const atOnce = RUNS_AT_ONCE > 0 ? await openPhase("refills at once (ARGUS_POOL_REFILL_QUIET_MS=0)", "vision", model, png, { ARGUS_POOL_REFILL_QUIET_MS: "0" }) : null;
    const open = atOnce ? [byDefault, atOnce] : [byDefault];
    try {
      for (let i = 0; i < Math.max(RUNS, RUNS_AT_ONCE); i++) {
        if (i < RUNS) await runOn(byDefault, open, model, png, i + 1, RUNS);
        if (atOnce && i < RUNS_AT_ONCE) await runOn(atOnce, open, model, png, i + 1, RUNS_AT_ONCE);
      }
    } finally {
      for (const p of open) await p.close();
    }
    results.push(...open);
    if (RUNS_COLD > 0) {
      const cold = await openPhase("without preload (ARGUS_KERNEL_PRELOAD=none)", "none", model, png);
      try {
        for (let i = 0; i < RUNS_COLD; i++) await runOn(cold, [cold], model, png, i + 1, RUNS_COLD);
      } finally {
        await cold.close();
      }
      results.push(cold);
    }
  } finally {
    await model.close();
    scratch.cleanup();
  }

  const target = 1.5 * floorMs + 300;
  console.log("");
  console.log(
    table([
      ["server", "runs", "p50 wall ms", "p90 wall ms", "min", "max", "first (warm-up) run", "floor ms", "p50 / floor", "pool refill wait p50 ms"],
      ...results.map((r) => [
        r.label,
        r.walls.length,
        fmt(percentile(r.walls, 50), 0),
        fmt(percentile(r.walls, 90), 0),
        fmt(Math.min(...r.walls), 0),
        fmt(Math.max(...r.walls), 0),
        fmt(r.warmup, 0),
        fmt(floorMs, 0),
        fmt(percentile(r.walls, 50) / floorMs, 2),
        fmt(percentile(r.waits, 50), 0),
      ]),
    ]),
  );
  const p50 = percentile(results[0]!.walls, 50);
  console.log(`\nper run (ms): ${results[0]!.walls.map((w) => fmt(w, 0)).join(", ")}`);
  console.log(`target p50 wall ≤ 1.5 × floor + 300 ms = ${fmt(target, 0)} ms: p50 ${fmt(p50, 0)} ms — ${p50 <= target ? "MET" : "MISSED"}; load average at the end ${loadavg()}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
