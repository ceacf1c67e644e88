import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { freePort } from "@/lib/engines/kernels/free-port";
import { ping } from "@/lib/engines/kernels/jupyter-ping";
import { loadCompose } from "./compose-file";

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * Where the test's host differs from compose.yaml's: its address, its disks, and no vision preload
 * (as for every test instance, tests/helpers/argus-server.ts: ~2 s of CPU per kernel start, and
 * suites start many kernels on 2 cores). Nothing else: not the kernelspec, sandbox or culling.
 */
export const HOST_OVERRIDES = ["ARGUS_JUPYTER_IP", "ARGUS_JUPYTER_PORT", "ARGUS_JUPYTER_ROOT", "ARGUS_JUPYTER_STATE", "ARGUS_KERNEL_PRELOAD"] as const;

export interface DeployedJupyter {
  /** signal() reaches the host and every kernel it started (its process group): SIGSTOP freezes them all. */
  server: { stop(): Promise<void>; output(): string; signal(signal: NodeJS.Signals): void };
  /** What it serves (compose.yaml's /work): not Argus's data directory. */
  rootDir: string;
  url: string;
  token: string;
}

/**
 * The shared Jupyter host exactly as deploy/compose.yaml runs it: the `jupyter` service's command
 * (scripts/jupyter-host.ts) and environment, read from the compose file, with only its address
 * (loopback, a free port), its directories (in `dir`) and the preload (HOST_OVERRIDES) changed, and a token of the test's own.
 * It writes Argus's argus-python kernelspec and sandboxes each kernel with bubblewrap. In its own
 * process group, so stop() also ends every kernel it started.
 */
export async function startDeployedJupyter(dir: string): Promise<DeployedJupyter> {
  const token = randomBytes(24).toString("hex");
  const service = loadCompose({ POSTGRES_PASSWORD: "x", REDIS_PASSWORD: "x", ARGUS_CLUSTER_SECRET: "x", JUPYTER_TOKEN: token }).services.jupyter!;
  const [command, ...args] = service.command as string[];
  const port = await freePort();
  const rootDir = path.join(dir, "their-root");
  const stateDir = path.join(dir, "their-jupyter");
  mkdirSync(rootDir, { recursive: true });
  const overrides: Record<(typeof HOST_OVERRIDES)[number], string> = {
    ARGUS_JUPYTER_IP: "127.0.0.1",
    ARGUS_JUPYTER_PORT: String(port),
    ARGUS_JUPYTER_ROOT: rootDir,
    ARGUS_JUPYTER_STATE: stateDir,
    ARGUS_KERNEL_PRELOAD: "none",
  };
  let log = "";
  // The image's working directory is the repository (/app); `node` is this one.
  const child = spawn(command === "node" ? process.execPath : command!, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", ...service.environment, ...overrides } as unknown as NodeJS.ProcessEnv,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (c: Buffer) => (log += c.toString()));
  child.stderr.on("data", (c: Buffer) => (log += c.toString()));
  let exited = false;
  const gone = new Promise<void>((resolve) => child.once("exit", () => ((exited = true), resolve())));
  const group = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  const stop = async () => {
    if (!exited) group("SIGTERM");
    const killer = setTimeout(() => group("SIGKILL"), 10_000);
    await gone;
    clearTimeout(killer);
    group("SIGKILL"); // a kernel that outlived the server
  };
  const url = `http://127.0.0.1:${port}`;
  // Ready when it answers with the token; a host that refuses its settings exits instead.
  for (;;) {
    if (exited) throw new Error(`the Jupyter host exited before it was ready:\n${log}`);
    if (await ping({ baseUrl: url, token }, 2000)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { server: { stop, output: () => log, signal: group }, rootDir, url, token };
}
