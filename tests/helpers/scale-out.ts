import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { loadScenario, startScriptedModel, type ScriptedModel } from "@/scripted-model/server";
import { ROLE_MODELS } from "./agent-run";
import { api, startArgus, type RunningServer } from "./argus-server";
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
    ...env,
  };
  const a = await startArgus({ dataDir: scratch.dir, instanceId: "a", redisUrl: redis.url, env: shared });
  const b = await startArgus({ dataDir: scratch.dir, instanceId: "b", redisUrl: redis.url, env: shared });
  const orphans: { pid: number; cmdline: string }[] = [];
  const crashA = async () => {
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
    if (a.proc.pid) walk(a.proc.pid);
    await a.kill("SIGKILL");
  };
  return {
    redis,
    model,
    a,
    b,
    callA: api(a.url),
    callB: api(b.url),
    dataDir: scratch.dir,
    crashA,
    close: async () => {
      await Promise.all([a.kill(), b.kill()]);
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

function cmdlineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return "";
  }
}
