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
  // Jupyter failed to start: tried again in the background until it starts or the server closes.
  let retrying: Promise<boolean> | null = null;
  let wakeRetry = () => undefined as void;
  const startKernels = async () => {
    await jupyter.jupyter.start();
    await kernels?.start();
  };
  const retryInBackground = () => {
    const wait = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms).unref();
        wakeRetry = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    retrying = retryJupyterStart({ start: startKernels, stopped: () => closed, log, wait });
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
        await (jupyterStarting ?? jupyter.jupyter.start());
        jupyterStarting = null;
        await kernels?.start();
      } catch (error) {
        jupyterStarting = null;
        retryInBackground();
        throw error;
      } finally {
        // After the kernels (even when Jupyter failed to start): a run the last stop cut off may go on
        // here at once, its notebook rebuilt in a new kernel (lib/features/scale/run-recovery.ts).
        await runRouter.start();
      }
      // Batches a stopped server left running go on from their first unfinished item.
      const resumed = await batches.resumeAll();
      if (resumed > 0) log(`[argus] resumed ${resumed} batch run(s)`);
      batchLeases?.start();
    },
    async close() {
      if (closed) return;
      closed = true;
      wakeRetry();
      // A retry under way finishes first, so the server it may be starting is stopped below.
      await retrying;
      await runRouter.close();
      if (redis) await closeRedis(redis);
      await browser?.computers.closeAll().catch(() => undefined);
      await batchLeases?.close();
      await batches.close().catch(() => undefined);
      await functionCalls?.close().catch(() => undefined);
      await kernels?.close().catch(() => undefined);
      await Promise.resolve(vision.close()).catch(() => undefined);
      await jupyter.jupyter.stop();
      await db.close();
    },
  };
}
