import type { ArgusConfig } from "@/lib/foundation/config";
import type { Db } from "@/lib/engines/db/database";
import type { JupyterChoice } from "@/lib/engines/kernels/jupyter-backend-choice";
import { retryJupyterStart } from "@/lib/engines/kernels/jupyter-start-retry";
import type { KernelRegistry } from "@/lib/engines/kernels/registry";
import { closeRedis, type RedisClient } from "@/lib/features/scale/redis";
import type { VisionService } from "@/lib/engines/vision/service";
import type { BatchParts } from "./batches";
import type { BrowserServices } from "./browser";
import type { RunParts } from "./runs";

export interface LifecycleParts {
  db: Db;
  jupyter: JupyterChoice;
  kernels: KernelRegistry | null;
  runs: RunParts;
  batches: BatchParts;
  browser: BrowserServices | null;
  vision: VisionService;
  redis: RedisClient | null;
}

/**
 * Starting and stopping what the composition built, in dependency order: runs' leases first,
 * then Jupyter and the pool, then the batches a stopped server left; closing goes the other
 * way and closes each part once.
 */
export function lifecycle(
  config: ArgusConfig,
  parts: LifecycleParts,
  log: (line: string) => void,
): { start(): Promise<void>; close(): Promise<void> } {
  const { db, jupyter, kernels, browser, vision, redis } = parts;
  const { runRouter } = parts.runs;
  const { batches, batchLeases, functionCalls } = parts.batches;
  const { isolation, limits } = jupyter;
  let jupyterStarting = jupyter.starting;
  let closed = false;
  let kernelsStarted = false;
  let batchesStarted = false;
  const startKernels = async () => {
    // A server a failed try already started is not started twice (only its registry failed).
    if (!jupyter.jupyter.endpoint()) await jupyter.jupyter.start();
    if (closed || kernelsStarted) return;
    await kernels?.start();
    kernelsStarted = true;
  };
  // Batches a stopped server left running go on from their first unfinished item: only once
  // kernels can run them (before, their leases run out and an instance with kernels takes them).
  const startBatches = async () => {
    if (closed || batchesStarted) return;
    batchesStarted = true;
    const resumed = await batches.resumeAll();
    if (resumed > 0) log(`[argus] resumed ${resumed} batch run(s)`);
    batchLeases?.start();
  };
  // Jupyter failed to start: tried again in the background until it starts or the server closes.
  let retrying: Promise<boolean> | null = null;
  let wakeRetry = () => undefined as void;
  const retryInBackground = () => {
    const wait = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms).unref();
        wakeRetry = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    const start = async () => {
      await startKernels();
      await startBatches();
    };
    retrying = retryJupyterStart({ start, stopped: () => closed, log, wait });
  };
  return {
    async start() {
      if (isolation.kind === "none" && config.jupyter.mode === "managed") {
        log(`[argus] WARNING: kernels run WITHOUT a filesystem sandbox (${isolation.reason}); model-written code can read this machine's files.`);
      }
      if (limits.kind === "rlimit") {
        log(`[argus] WARNING: no cgroup per kernel (${limits.reason}); memory and process limits hold per process only, so one cell can start many processes.`);
      }
      try {
        await jupyterStarting;
        jupyterStarting = null;
        await startKernels();
      } catch (error) {
        jupyterStarting = null;
        retryInBackground();
        throw error;
      } finally {
        // After the kernels (even when Jupyter failed to start): a run the last stop cut off may go on
        // here at once, its notebook rebuilt in a new kernel (lib/features/scale/run-recovery.ts).
        await runRouter.start();
      }
      await startBatches();
    },
    async close() {
      if (closed) return;
      closed = true;
      wakeRetry();
      await runRouter.close();
      if (redis) await closeRedis(redis);
      await browser?.computers.closeAll().catch(() => undefined);
      await batchLeases?.close();
      await batches.close().catch(() => undefined);
      await functionCalls?.close().catch(() => undefined);
      await kernels?.close().catch(() => undefined);
      await Promise.resolve(vision.close()).catch(() => undefined);
      // A retry under way ends first, so a server it was starting is stopped here too.
      await retrying;
      await jupyter.jupyter.stop();
      await db.close();
    },
  };
}
