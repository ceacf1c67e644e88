import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { tempDir } from "./temp-dir";
import { databaseTarget, engineEnv, TEST_CLUSTER_SECRET } from "./test-engines";
import { keepToolCatalogue, seedToolCatalogue, usesJupyter } from "./tool-catalogue-seed";

const ROOT = path.resolve(import.meta.dirname, "../..");

export interface RunningServer {
  url: string;
  dataDir: string;
  /** Its database, to open directly (openDatabase): the SQLite file, or the Postgres URL under ARGUS_TEST_DB=postgres. */
  database: string;
  proc: ChildProcess;
  output: () => string;
  /** Sends a signal and waits for the process to exit. */
  kill: (signal?: NodeJS.Signals) => Promise<number | null>;
}

/**
 * Starts the real Argus server (server.ts, production build) as a child
 * process on a free port with its own data directory, the way `npm start`
 * does, and waits until it says it is listening.
 */
export async function startArgus(options: {
  dataDir: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  /** ARGUS_INSTANCE_ID: names the instance in run leases (two instances sharing one data dir). */
  instanceId?: string;
  /** REDIS_URL: Socket.io and run commands across instances. */
  redisUrl?: string;
}): Promise<RunningServer> {
  if (!existsSync(path.join(ROOT, ".next", "BUILD_ID"))) {
    throw new Error("No production build: run `npm run build` (npm test does it for you).");
  }
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: process.env.HOME ?? "/tmp",
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: "0",
    HOST: "127.0.0.1",
    ARGUS_DATA_DIR: options.dataDir,
    ARGUS_JUPYTER: "off",
    // Preloading the vision stack costs ~2 s of CPU per kernel start; suites
    // start many kernels on 2 cores, so only the tests of the preload ask for it.
    ARGUS_KERNEL_PRELOAD: "none",
    // Every test client comes from 127.0.0.1, and suites create many sessions;
    // the rate limit has its own test (http-session-rate.test.ts).
    ARGUS_SESSION_RATE_PER_MINUTE: "100000",
    ...(await engineEnv(options.dataDir)),
    ...(options.instanceId ? { ARGUS_INSTANCE_ID: options.instanceId } : {}),
    ...(options.redisUrl ? { REDIS_URL: options.redisUrl, ARGUS_CLUSTER_SECRET: TEST_CLUSTER_SECRET } : {}),
    ...options.env,
  };
  const jupyter = usesJupyter(env);
  if (jupyter) seedToolCatalogue(options.dataDir);
  const proc = spawn(process.execPath, serverEntry(), {
    cwd: ROOT,
    env: env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  proc.stdout!.on("data", (c: Buffer) => (log += c.toString()));
  proc.stderr!.on("data", (c: Buffer) => (log += c.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server did not start in time:\n${log}`)),
      options.timeoutMs ?? 60_000,
    );
    const check = () => {
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    proc.stdout!.on("data", check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${log}`));
    });
  });

  if (jupyter) keepToolCatalogue(options.dataDir);
  return {
    url,
    dataDir: options.dataDir,
    database: options.env?.DATABASE_URL ?? (await databaseTarget(options.dataDir)),
    proc,
    output: () => log,
    kill: async (signal = "SIGTERM") => {
      if (proc.exitCode !== null || proc.signalCode !== null) return proc.exitCode;
      proc.kill(signal);
      return exited;
    },
  };
}

/**
 * How the server is started: the bundle scripts/ensure-build.sh made (`.next/argus-server.mjs`, as
 * `npm start` runs it) when scripts/test.sh says it is fresh (ARGUS_TEST_SERVER_BUNDLE=1, set right
 * after ensure-build.sh), else server.ts through tsx, which is always current but transpiles a few
 * hundred files at every start (~1.5 CPU-seconds more per server; the suite starts well over a hundred).
 */
function serverEntry(): string[] {
  const bundle = path.join(ROOT, ".next", "argus-server.mjs");
  if (process.env.ARGUS_TEST_SERVER_BUNDLE === "1" && existsSync(bundle)) return [bundle];
  return ["--import", "tsx", "server.ts"];
}

/** A tiny client for the public HTTP interface. */
export function api(base: string, defaults: { token?: string; cookie?: string } = {}) {
  return async (
    method: string,
    route: string,
    init: { body?: unknown; raw?: BodyInit; headers?: Record<string, string>; token?: string | null } = {},
  ) => {
    const headers: Record<string, string> = { ...init.headers };
    const token = init.token === undefined ? defaults.token : init.token;
    if (token) headers.authorization = `Bearer ${token}`;
    if (defaults.cookie && !headers.cookie) headers.cookie = defaults.cookie;
    let body: BodyInit | undefined = init.raw;
    if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers["content-type"] = "application/json";
    }
    const res = await fetch(base + route, { method, headers, body });
    const text = await res.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    return { status: res.status, headers: res.headers, json: json as Record<string, any>, text };
  };
}

/**
 * Starts one Argus server for a test file (in a scratch data directory) and
 * stops it afterwards. Read `server`, `call` and `dataDir` inside tests.
 */
export function useArgusServer(env: Record<string, string> = {}) {
  const scratch = tempDir();
  const ctx = { dataDir: scratch.dir } as { server: RunningServer; call: ReturnType<typeof api>; dataDir: string };
  beforeAll(async () => {
    ctx.server = await startArgus({ dataDir: scratch.dir, env });
    ctx.call = api(ctx.server.url);
  });
  afterAll(async () => {
    await ctx.server?.kill();
    scratch.cleanup();
  });
  return ctx;
}
