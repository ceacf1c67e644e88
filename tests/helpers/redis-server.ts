import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "@/lib/engines/kernels/free-port";

export interface RunningRedis {
  /** `redis://127.0.0.1:<port>`: what REDIS_URL is set to. */
  url: string;
  port: number;
  /** Stops the server (SIGTERM, or SIGKILL for a crash) and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port, empty (nothing is persisted): a Redis restart. */
  restart(): Promise<void>;
  /** Starts it after stop(), on the same port, empty. */
  start(): Promise<void>;
  /** Stops it for good and removes its directory. */
  close(): Promise<void>;
  output(): string;
}

/** Whether Debian's redis-server is installed (`bash scripts/setup.sh --test` installs it). */
export function haveRedis(): boolean {
  return spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status === 0;
}

/**
 * Starts Debian's `redis-server` as the current user (root included: Redis
 * does not refuse it) on a free loopback port, working directory in a scratch
 * directory, nothing persisted (`--save '' --appendonly no`). The tests and
 * the scale-out benchmark own it and stop it after; the system's Redis service
 * is never touched.
 */
export async function startRedis(): Promise<RunningRedis> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "argus-redis-"));
  let port = await freePort();
  let proc: ChildProcess | null = null;
  let log = "";

  const launch = () =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(
        "redis-server",
        ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no", "--daemonize", "no", "--protected-mode", "yes"],
        { cwd: dir, stdio: ["ignore", "pipe", "pipe"] },
      );
      proc = child;
      const onData = (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes("Ready to accept connections")) {
          child.stdout!.off("data", onData);
          child.stdout!.on("data", (c: Buffer) => (log += c.toString()));
          resolve();
        }
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", (c: Buffer) => (log += c.toString()));
      // It either says it is ready or exits (a start that hangs is bounded by the caller's budget).
      child.once("exit", (code) => {
        reject(new Error(`redis-server exited with ${code} before it was ready:\n${log}`));
      });
    });

  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    const child = proc as ChildProcess | null;
    proc = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill(signal);
    await exited;
  };

  // The free port was only free when asked; another process may bind it first (see postgres.ts).
  for (let attempt = 1; ; attempt++) {
    try {
      await launch();
      break;
    } catch (error) {
      if (attempt >= 5 || !/already in use|Could not create server TCP/i.test(log)) throw error;
      log = "";
      port = await freePort();
    }
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    restart: async () => {
      await stop();
      log = "";
      await launch();
    },
    start: async () => {
      log = "";
      await launch();
    },
    close: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
    output: () => log,
  };
}
