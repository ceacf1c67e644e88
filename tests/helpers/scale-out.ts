import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { openDatabase } from "@/lib/engines/db/database";
import { eventsAfter } from "@/lib/engines/db/events";
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";
import { loadScenario, startScriptedModel, type ScriptedModel } from "@/scripted-model/server";
import { ROLE_MODELS } from "./agent-run";
import { api, startArgus, type RunningServer } from "./argus-server";
import { startDeployedJupyter } from "./jupyter-host";
import { startPostgres, type TestPostgres } from "./postgres";
import { startRedis, type RunningRedis } from "./redis-server";
import { tempDir } from "./temp-dir";

export interface ScaleOutWorld {
  redis: RunningRedis;
  model: ScriptedModel;
  /** Instance "a" and instance "b": one data directory (one SQLite file), one Redis. */
  a: RunningServer;
  b: RunningServer;
  callA: ReturnType<typeof api>;
  callB: ReturnType<typeof api>;
  dataDir: string;
  /** `kill -9` of instance `a`; what it started (jupyter-server, kernels) is stopped by close(). */
  crashA(): Promise<void>;
  /**
   * Starts one more instance on the same database, Redis and model, under `instanceId` (a
   * restart of `a` under its own id, or a second process under an id in use); close() stops it.
   */
  startInstance(instanceId: string, env?: Record<string, string>): Promise<RunningServer>;
  /** `kill -9` of any instance of the world; what it started is stopped by close(). */
  crash(server: RunningServer): Promise<void>;
  close(): Promise<void>;
}

/**
 * Redis (our own redis-server), the scripted model, and two real Argus
 * instances sharing one data directory, hence one SQLite file in WAL mode,
 * until Postgres lands. They start one after the other: the first applies
 * the migrations, so the second never races it on a fresh file.
 */
export async function startScaleOut(scenarioFile: string, env: Record<string, string> = {}): Promise<ScaleOutWorld> {
  const scratch = tempDir("argus-scale-");
  const redis = await startRedis();
  const model = await startScriptedModel(loadScenario(path.resolve(scenarioFile)));
  const shared = {
    ARGUS_JUPYTER: "auto",
    ARGUS_KERNEL_POOL: "1",
    OPENAI_BASE_URL: model.url,
    OPENAI_API_KEY: "scripted",
    ...ROLE_MODELS,
    // These worlds check what happens to a run when it cannot go on (it ends interrupted);
    // scale-out-resume.test.ts turns resuming on and checks that it goes on.
    ARGUS_RESUME_RUNS: "off",
    ...env,
  };
  const a = await startArgus({ dataDir: scratch.dir, instanceId: "a", redisUrl: redis.url, env: shared });
  const b = await startArgus({ dataDir: scratch.dir, instanceId: "b", redisUrl: redis.url, env: shared });
  const orphans: { pid: number; cmdline: string }[] = [];
  const more: RunningServer[] = [];
  const startInstance = async (instanceId: string, extra: Record<string, string> = {}) => {
    const server = await startArgus({ dataDir: scratch.dir, instanceId, redisUrl: redis.url, env: { ...shared, ...extra } });
    more.push(server);
    return server;
  };
  const crash = async (server: RunningServer) => {
    const walk = (pid: number) => {
      let out = "";
      try {
        out = execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" });
      } catch {
        return; // no children
      }
      for (const child of out.split(/\s+/).filter(Boolean).map(Number)) {
        orphans.push({ pid: child, cmdline: cmdlineOf(child) });
        walk(child);
      }
    };
    if (server.proc.pid) walk(server.proc.pid);
    await server.kill("SIGKILL");
  };
  return {
    redis,
    model,
    a,
    b,
    callA: api(a.url),
    callB: api(b.url),
    dataDir: scratch.dir,
    crashA: () => crash(a),
    crash,
    startInstance,
    close: async () => {
      await Promise.all([a.kill(), b.kill(), ...more.map((server) => server.kill())]);
      // A killed with SIGKILL left its jupyter-server (started detached) and kernels behind:
      // stop each by its id, if that id still runs what A started.
      for (const { pid, cmdline } of orphans) {
        if (cmdline && cmdlineOf(pid) === cmdline) {
          try {
            process.kill(pid, "SIGKILL");
          } catch {
            // already gone
          }
        }
      }
      await model.close();
      await redis.close();
      scratch.cleanup();
    },
  };
}

export interface ScaleOutOnEngines extends ScaleOutWorld {
  postgres: TestPostgres;
  /** The one database both instances use. */
  databaseUrl: string;
  /** The shared jupyter-server's root: not Argus's data directory. */
  jupyterRoot: string;
  /** Signals the shared Jupyter host and its kernels (SIGSTOP: nothing on it answers until SIGCONT). */
  signalJupyter(signal: NodeJS.Signals): void;
}

/**
 * The deployment the Scaling out section describes: two instances with one shared
 * ARGUS_DATA_DIR (the blobs' volume), ONE Postgres (started here whatever
 * ARGUS_TEST_DB says), one Redis, and ONE Jupyter host set up as deploy/compose.yaml
 * sets it up (tests/helpers/jupyter-host.ts), rooted outside Argus's data directory, so
 * files reach the kernels through the kernel channel (ARGUS_WORKSPACE_TRANSPORT=kernel). Kernels live on that server,
 * not under either instance, so they outlive a `kill -9` of the instance using them.
 */
export async function startScaleOutOnEngines(scenarioFile: string, env: Record<string, string> = {}): Promise<ScaleOutOnEngines> {
  const scratch = tempDir("argus-scale-engines-");
  const postgres = await startPostgres();
  const closers: (() => Promise<void>)[] = [() => postgres.stop()];
  try {
    const theirs = await startDeployedJupyter(scratch.dir);
    closers.unshift(() => theirs.server.stop());
    const databaseUrl = await postgres.createDatabase("argus");
    const world = await startScaleOut(scenarioFile, {
      DATABASE_URL: databaseUrl,
      JUPYTER_URL: theirs.url,
      JUPYTER_TOKEN: theirs.token,
      ARGUS_KERNEL_NAME: "argus-python",
      ARGUS_WORKSPACE_TRANSPORT: "kernel",
      // No warm pool: every session kernel on the shared server is one a test asked for.
      ARGUS_KERNEL_POOL: "0",
      ...env,
    });
    return {
      ...world,
      postgres,
      databaseUrl,
      jupyterRoot: theirs.rootDir,
      signalJupyter: (signal) => theirs.server.signal(signal),
      close: async () => {
        await world.close();
        for (const close of closers) await close();
        scratch.cleanup();
      },
    };
  } catch (error) {
    for (const close of closers) await close().catch(() => undefined);
    scratch.cleanup();
    throw error;
  }
}

function cmdlineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return "";
  }
}

export type ScaleOutSession = { id: string; token: string };

/** The session's stored transcript, as an instance serves it over HTTP. */
export async function transcript(call: ScaleOutWorld["callA"], session: ScaleOutSession): Promise<StreamedMessage[]> {
  return (await call("GET", `/api/sessions/${session.id}`, { token: session.token })).json.messages as StreamedMessage[];
}

/** Waits for a state. A generous ceiling only so a broken build fails instead of hanging; nothing is timed. */
export async function eventually(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + 120_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`never happened: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** What a live message and its stored copy must agree on. */
/** Every event seq of the session in the world's one Postgres, read directly (to see the log has no gap). */
export async function storedSeqs(databaseUrl: string, sessionId: string): Promise<number[]> {
  const db = await openDatabase(databaseUrl);
  try {
    return (await eventsAfter(db, sessionId, 0)).map((row) => row.seq);
  } finally {
    await db.close();
  }
}

export const shape = (m: StreamedMessage) => ({ seq: m.seq, role: m.role, content: m.content, runId: m.runId });
