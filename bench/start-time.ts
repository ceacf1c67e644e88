/**
 * Start time: `npm start` (scripts/start.sh) twice on one data directory, as on a machine that
 * already ran it, from spawning the script to `GET /api/health` answering ok, and on to a full
 * kernel pool. The breakdown comes from the lines start.sh and the server print as each step
 * ends (install check, build check, server ready with its jupyter-server, pool). The first start
 * is the baseline from the same run: it begins with nothing remembered (no .argus/python-ready,
 * a new data directory, so no cached tool catalogue), which is what every start did before those
 * were remembered. The target is the second: health ok in ≤ 5 s.
 *
 *   npm run bench:start   (needs a build: `bash scripts/ensure-build.sh`)
 */
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { tempDir } from "@/tests/helpers/temp-dir";
import { fmt, table } from "./lib/stats";

const ROOT = path.resolve(import.meta.dirname, "..");
const loadavg = () => os.loadavg().map((n) => n.toFixed(2)).join(" ");

interface Start {
  healthOkMs: number;
  poolFullMs: number;
  /** The step lines start.sh and the server printed, with when each arrived. */
  marks: { atMs: number; line: string }[];
}

async function startOnce(dataDir: string): Promise<Start> {
  const t0 = performance.now();
  const marks: Start["marks"] = [];
  const proc = spawn("bash", ["scripts/start.sh"], {
    cwd: ROOT,
    env: { ...process.env, ARGUS_DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", ARGUS_KERNEL_POOL: "2" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let url: string | null = null;
  let buffered = "";
  const onData = (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split("\n");
    buffered = lines.pop()!;
    for (const line of lines) {
      if (/^\[(start|argus|setup|build)\]/.test(line)) marks.push({ atMs: performance.now() - t0, line });
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(line);
      if (m) url = m[1]!;
    }
  };
  proc.stdout!.on("data", onData);
  proc.stderr!.on("data", onData);
  let healthOkMs = Number.NaN;
  let poolFullMs = Number.NaN;
  try {
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`npm start exited with ${proc.exitCode}:\n${marks.map((m) => m.line).join("\n")}`);
      if (performance.now() - t0 > 180_000) throw new Error("npm start did not become healthy in 3 minutes");
      if (url) {
        const res = await fetch(`${url}/api/health`).catch(() => null);
        if (res) {
          const body = (await res.json()) as { ok: boolean; kernels?: { pooled: number; poolSize: number } };
          if (body.ok && Number.isNaN(healthOkMs)) healthOkMs = performance.now() - t0;
          if (body.ok && body.kernels && body.kernels.pooled >= body.kernels.poolSize) {
            poolFullMs = performance.now() - t0;
            break;
          }
        }
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    const exited = new Promise((r) => proc.once("exit", r));
    process.kill(-proc.pid!, "SIGTERM");
    await exited;
  }
  return { healthOkMs, poolFullMs, marks };
}

async function main() {
  console.log(`bench:start — npm start twice on one data directory; load average ${loadavg()}, ${os.cpus().length} cores`);
  const scratch = tempDir("argus-bench-start-");
  try {
    rmSync(path.join(ROOT, ".argus", "python-ready"), { force: true });
    const first = await startOnce(scratch.dir);
    const second = await startOnce(scratch.dir);
    for (const [label, s] of [["first start", first], ["second start", second]] as const) {
      console.log(`\n${label}:`);
      for (const m of s.marks) console.log(`  +${fmt(m.atMs / 1000, 2)} s  ${m.line}`);
    }
    console.log("");
    console.log(
      table([
        ["start", "health ok s", "pool full s"],
        ["first (baseline: nothing remembered)", fmt(first.healthOkMs / 1000, 2), fmt(first.poolFullMs / 1000, 2)],
        ["second", fmt(second.healthOkMs / 1000, 2), fmt(second.poolFullMs / 1000, 2)],
      ]),
    );
    const met = second.healthOkMs <= 5000;
    console.log(`\ntarget: second start health ok ≤ 5 s: ${fmt(second.healthOkMs / 1000, 2)} s — ${met ? "MET" : "MISSED"}; load average at the end ${loadavg()}`);
  } finally {
    scratch.cleanup();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
