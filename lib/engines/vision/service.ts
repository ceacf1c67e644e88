/**
 * The neural vision service: one per server process. It validates a call's
 * parameters against the catalogue, decodes the image, and runs the model in a
 * worker thread (lib/engines/vision/worker/main.ts) so the event loop never waits on
 * inference. Models load lazily, once per family, on first use (a server that
 * never calls a vision tool pays nothing) and stay warm.
 *
 * Memory bound: at most `workers` threads (default 1 on a 2-core machine, at most
 * 2), each holding only the families it has been asked to run; at most
 * `queueLimit` calls wait, one more is answered `busy` at once.
 */
import { existsSync } from "node:fs";
import os from "node:os";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { z } from "zod";
import { FAMILY_MODELS, findVisionTool, VISION_TOOLS, type VisionFamily } from "./catalogue";
import { VisionError } from "./errors";
import { decodeImage } from "./image";
import { VisionPool, type WorkerHandle } from "./pool";

export interface VisionToolInfo {
  name: string;
  signature: string;
  doc: string;
  /** JSON schema of the keyword arguments (everything but the image), with defaults. */
  params: Record<string, unknown>;
}

export interface VisionHealth {
  state: "idle" | "loading" | "ready" | "failed";
  models: { name: string; loaded: boolean; error?: string }[];
  rssBytes: number;
  queue: { running: number; waiting: number; limit: number };
}

export interface VisionService {
  list(): VisionToolInfo[];
  /**
   * Runs one tool on PNG/JPEG/WebP bytes. `seconds` is the model's inference wall
   * time for this call: not the queueing, the decoding, nor a first call's model loading.
   */
  call(name: string, image: Buffer, params: unknown, opts?: { signal?: AbortSignal }): Promise<{ result: unknown; seconds: number }>;
  health(): VisionHealth;
  close(): Promise<void>;
}

/** Longest image edge each family is given: the detectors see 256-512 px inputs, text needs detail to read. */
const MAX_EDGE: Record<VisionFamily, number> = { objects: 1280, faces: 1280, poses: 1280, segmentation: 1024, text: 1920 };

export function defaultWorkerCount(): number {
  return Math.max(1, Math.min(2, os.availableParallelism() - 1));
}

export function createVisionService(options?: { workers?: number; queueLimit?: number }): VisionService {
  const workers = Math.max(1, Math.floor(options?.workers ?? defaultWorkerCount()));
  const queueLimit = Math.max(0, Math.floor(options?.queueLimit ?? 16));
  const pool = new VisionPool({ workers, queueLimit, spawn: spawnVisionWorker });

  return {
    list() {
      return VISION_TOOLS.map((entry) => ({
        name: entry.name,
        signature: entry.signature,
        doc: entry.doc,
        params: z.toJSONSchema(entry.params, { io: "input" }) as Record<string, unknown>,
      }));
    },

    async call(name, image, params, opts) {
      const entry = findVisionTool(name);
      if (!entry) {
        throw new VisionError(
          "unknown_tool",
          `There is no vision tool called ${JSON.stringify(name)}; the tools are ${VISION_TOOLS.map((t) => t.name).join(", ")}.`,
        );
      }
      const parsed = parseParams(entry.name, entry.params, params);
      if (opts?.signal?.aborted) throw new VisionError("aborted", `${name} was cancelled before it started.`);
      const decoded = await decodeImage(image, MAX_EDGE[entry.family]);
      return pool.submit({ tool: entry.name, family: entry.family, params: parsed, image: decoded }, opts?.signal);
    },

    health() {
      const families = pool.families();
      const names = [...new Set(Object.values(FAMILY_MODELS).flat())];
      const models = names.map((name) => {
        const owners = (Object.keys(FAMILY_MODELS) as VisionFamily[]).filter((family) => FAMILY_MODELS[family].includes(name));
        const states = owners.flatMap((family) => (families.get(family) ? [families.get(family)!] : []));
        const error = states.find((entry) => entry.state === "failed")?.error;
        return { name, loaded: states.some((entry) => entry.state === "loaded"), ...(error ? { error } : {}) };
      });
      const states = [...families.values()].map((entry) => entry.state);
      const state = states.includes("loading")
        ? "loading"
        : states.includes("failed")
          ? "failed"
          : states.includes("loaded")
            ? "ready"
            : "idle";
      return { state, models, rssBytes: process.memoryUsage().rss, queue: pool.stats() };
    },

    close() {
      return pool.close();
    },
  };
}

function parseParams(tool: string, schema: z.ZodType, params: unknown): Record<string, unknown> {
  const given = params === undefined || params === null ? {} : params;
  if (typeof given !== "object" || Array.isArray(given)) {
    throw new VisionError("bad_params", `${tool}: the parameters must be an object of keyword arguments, like {"box_threshold": 0.3}.`, {
      field: "params",
    });
  }
  const result = schema.safeParse(given);
  if (result.success) return result.data as Record<string, unknown>;
  const issue = result.error.issues[0]!;
  const field = issue.code === "unrecognized_keys" ? String(issue.keys[0]) : String(issue.path[0] ?? "params");
  const message =
    issue.code === "unrecognized_keys"
      ? `${tool} has no parameter ${issue.keys.map((key) => JSON.stringify(key)).join(", ")}; see its signature.`
      : `${tool}: ${field}: ${issue.message}`;
  throw new VisionError("bad_params", message, { field });
}

/**
 * A worker thread running lib/engines/vision/worker/main.ts. The worker is TypeScript,
 * so it starts through tsx's API (a dependency already: it runs server.ts);
 * `--import tsx` in execArgv does not reach a worker's entry module on Node 20.
 */
function spawnVisionWorker(): WorkerHandle {
  const require = createRequire(import.meta.url);
  const tsxApi = pathToFileURL(require.resolve("tsx/esm/api").replace(/\.cjs$/, ".mjs")).href;
  const entry = workerEntry().href;
  const boot = `import(${JSON.stringify(tsxApi)}).then((tsx) => tsx.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}));`;
  const worker = new Worker(boot, { eval: true, execArgv: [], name: "argus-vision" });
  worker.unref();
  return worker as unknown as WorkerHandle;
}

/**
 * The worker's source: beside this file when running from source (tsx, vitest),
 * or in lib/ next to .next/ when this code is inside the bundled server that
 * scripts/ensure-build.sh writes to .next/argus-server.mjs.
 */
function workerEntry(): URL {
  const candidates = [new URL("./worker/main.ts", import.meta.url), new URL("../lib/engines/vision/worker/main.ts", import.meta.url)];
  const found = candidates.find((candidate) => existsSync(fileURLToPath(candidate)));
  if (!found) {
    throw new VisionError("unavailable", "The vision models cannot start: lib/engines/vision/worker/main.ts is missing from this installation.");
  }
  return found;
}
