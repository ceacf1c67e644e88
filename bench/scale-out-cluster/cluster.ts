/**
 * The deployed layout for bench:scale-out: one Postgres, one Redis, Debian's nginx running
 * deploy/nginx.conf, and N real Argus instances (each with its own jupyter-server) on one shared
 * ARGUS_DATA_DIR, the model being one scripted model per run behind a router keyed by the run's
 * tag. Instances can be killed with SIGKILL (what they started dies with them, as in a container)
 * and restarted under their own id.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { startScriptedModel, type ScriptedModel } from "@/scripted-model/server";
import { ROLE_MODELS } from "@/tests/helpers/agent-run";
import { api, startArgus, type RunningServer } from "@/tests/helpers/argus-server";
import { startNginx, type RunningNginx } from "@/tests/helpers/nginx";
import { startPostgres, type TestPostgres } from "@/tests/helpers/postgres";
import { startRedis, type RunningRedis } from "@/tests/helpers/redis-server";
import { tempDir } from "@/tests/helpers/temp-dir";
import { startRouter } from "../load/model-router";
import { plannerRun, scenario, shapesPng } from "../load/scenarios";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TAG = /\[so-\d{4}\]/;

export interface Instance {
  id: string;
  server: RunningServer;
  call: ReturnType<typeof api>;
}

export interface Cluster {
  instances: Instance[];
  /** Null for the single-instance baseline (clients connect to the instance itself). */
  nginx: RunningNginx | null;
  redis: RunningRedis | null;
  databaseUrl: string;
  /** A session on instance `k` with shapes.png uploaded and a scripted model for one planner run; returns what to post. */
  prepareRun(k: number): Promise<PreparedRun>;
  /** kill -9 of instance `k` and everything it started; resolves once it is gone. */
  crash(k: number): Promise<void>;
  /** Starts instance `k` again under its own id (what `restart: unless-stopped` does). */
  restart(k: number): Promise<void>;
  close(): Promise<void>;
}

export interface PreparedRun {
  session: { id: string; token: string };
  tag: string;
  /** Posts the person's message to instance `k` directly; returns the run id. */
  post(k: number): Promise<string>;
}

export async function startCluster(options: { instances: number; redis: boolean; nginx: boolean; postgres: TestPostgres; dbName: string }): Promise<Cluster> {
  const databaseUrl = await options.postgres.createDatabase(options.dbName);
  const redis = options.redis ? await startRedis() : null;
  const models = new Map<string, ScriptedModel>();
  const router = await startRouter((body) => {
    const m = TAG.exec(body);
    return m ? models.get(m[0]) : undefined;
  });
  const scratch = tempDir("argus-bench-scale-out-");
  const env = {
    ARGUS_JUPYTER: "auto",
    ARGUS_KERNEL_POOL: "1",
    DATABASE_URL: databaseUrl,
    OPENAI_BASE_URL: router.url,
    OPENAI_API_KEY: "scripted",
    ARGUS_TRUSTED_PROXIES: "127.0.0.1",
    ...ROLE_MODELS,
  };
  const ids = Array.from({ length: options.instances }, (_, k) => `argus-${k + 1}`);
  const start = async (id: string, port?: string) => {
    const server = await startArgus({ dataDir: scratch.dir, instanceId: id, ...(redis ? { redisUrl: redis.url } : {}), env: { ...env, ...(port ? { PORT: port } : {}) } });
    return { id, server, call: api(server.url) };
  };
  const instances: Instance[] = [];
  let nginx: RunningNginx | null = null;
  try {
    // One after the other: the first applies the migrations.
    for (const id of ids) instances.push(await start(id));
    if (options.nginx) nginx = await startNginx(instances.map((i) => new URL(i.server.url).host), confFor(instances.length));
  } catch (error) {
    // Nothing of a half-started cluster is left running.
    await Promise.all(instances.map((i) => i.server.kill()));
    await new Promise<void>((resolve) => router.server.close(() => resolve()));
    await redis?.close();
    scratch.cleanup();
    throw error;
  }
  const orphans: { pid: number; cmdline: string }[] = [];
  let runs = 0;

  return {
    instances,
    nginx,
    redis,
    databaseUrl,
    async prepareRun(k) {
      const tag = `[so-${String(runs++).padStart(4, "0")}]`;
      const blobs = 3 + (runs % 6);
      // A kill can land after the model answered a step but before the step was logged: the instance that takes the
      // run over sends that request again, and gets the answer again, as from a real model.
      models.set(tag, await startScriptedModel({ ...scenario(`scale-out ${tag}`, plannerRun(tag, blobs, 3)), repeatedRequests: "answer_again" }));
      const call = instances[k]!.call;
      const created = await call("POST", "/api/sessions");
      if (created.status !== 201) throw new Error(`create session on ${instances[k]!.id}: ${created.status} ${created.text}`);
      const session = created.json as { id: string; token: string };
      const form = new FormData();
      form.set("file", new Blob([(await shapesPng(blobs, runs)) as BlobPart]), "shapes.png");
      const uploaded = await call("POST", `/api/sessions/${session.id}/uploads`, { token: session.token, raw: form });
      if (uploaded.status !== 201) throw new Error(`upload: ${uploaded.status} ${uploaded.text}`);
      const media = (uploaded.json as { id: string }).id;
      return {
        session,
        tag,
        post: async (to) => {
          const posted = await instances[to]!.call("POST", `/api/sessions/${session.id}/messages`, {
            token: session.token,
            body: { role: "user", content: `How many blobs are in shapes.png? ${tag}`, media: [media] },
          });
          if (posted.status !== 202) throw new Error(`post to ${instances[to]!.id}: ${posted.status} ${posted.text}`);
          return posted.json.runId as string;
        },
      };
    },
    async crash(k) {
      const server = instances[k]!.server;
      const started = descendants(server.proc.pid!);
      orphans.push(...started);
      await server.kill("SIGKILL");
      // Its jupyter-server and kernels die with it, as they would with its container.
      for (const o of started) if (cmdlineOf(o.pid) === o.cmdline) signal(o.pid, "SIGKILL");
    },
    async restart(k) {
      // On its old port, as a container keeps its address: nginx's upstream names it.
      instances[k] = await start(ids[k]!, new URL(instances[k]!.server.url).port);
    },
    async close() {
      await nginx?.stop();
      await Promise.all(instances.map((i) => i.server.kill()));
      for (const o of orphans) if (cmdlineOf(o.pid) === o.cmdline) signal(o.pid, "SIGKILL");
      await Promise.all([...models.values()].map((m) => m.close()));
      await new Promise<void>((resolve) => router.server.close(() => resolve()));
      await redis?.close();
      scratch.cleanup();
    },
  };
}

/**
 * deploy/nginx.conf for `n` instances: its upstream names two; the bench runs three, so the last
 * `server` line is repeated (same parameters) for each more. Nothing else changes; the test
 * helper then templates ports and paths as the scale-out tests do.
 */
export function confFor(n: number): string {
  const shipped = readFileSync(path.join(ROOT, "deploy/nginx.conf"), "utf8");
  const upstream = /upstream\s+argus\s*\{[^}]*\}/.exec(shipped);
  if (!upstream) return shipped; // nginxConfForTest says what is wrong with it
  const lines = [...upstream[0].matchAll(/^([ \t]*)server[ \t]+\S+?([ \t][^;\n]*)?;[^\n]*$/gm)];
  const last = lines.at(-1);
  if (!last || n <= lines.length) return shipped;
  const extra = Array.from({ length: n - lines.length }, (_, i) => `${last[1]}server argus-extra-${i}:3000${last[2] ?? ""};`);
  const at = upstream.index + last.index! + last[0].length;
  return `${shipped.slice(0, at)}\n${extra.join("\n")}${shipped.slice(at)}`;
}

function descendants(pid: number): { pid: number; cmdline: string }[] {
  const found: { pid: number; cmdline: string }[] = [];
  const walk = (parent: number) => {
    let out = "";
    try {
      out = execFileSync("ps", ["-o", "pid=", "--ppid", String(parent)], { encoding: "utf8" });
    } catch {
      return;
    }
    for (const child of out.split(/\s+/).filter(Boolean).map(Number)) {
      found.push({ pid: child, cmdline: cmdlineOf(child) });
      walk(child);
    }
  };
  walk(pid);
  return found;
}

function cmdlineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return "";
  }
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}
