import type { ArgusConfig } from "@/lib/foundation/config";
import { BatchChannel } from "@/lib/features/batches/batch-channel";
import { BatchLeaseKeeper } from "@/lib/features/batches/batch-leases";
import { BatchRunner } from "@/lib/features/batches/batch-runner";
import { Semaphore } from "@/lib/features/batches/semaphore";
import { WarmFunctionRunners } from "@/lib/features/functions/warm-runners";
import type { KernelRegistry } from "@/lib/engines/kernels/registry";
import type { RunCommandBus } from "@/lib/features/scale/run-command-bus";
import type { Storage } from "./storage";

export interface BatchParts {
  /** Batch runs of a session function over many files (issue #15). */
  batches: BatchRunner;
  /** Batch state changes, relayed by Socket.io as `batch`. */
  batchEvents: BatchChannel;
  /** Batch requests unpacking zips at once (ARGUS_BATCH_ZIP_UNPACKS); a request past it gets 429. */
  zipUnpacks: Semaphore;
  /** Several instances: batches carry leases, and a dead instance's batch goes on elsewhere; null alone. */
  batchLeases: BatchLeaseKeeper | null;
  /** Kernels kept warm between HTTP calls of a session's function; null without kernels. */
  functionCalls: WarmFunctionRunners | null;
}

/** A session function run on many files (batches) or on one per HTTP call (warm function kernels). */
export function buildBatches(
  config: ArgusConfig,
  storage: Pick<Storage, "db" | "blobs">,
  kernels: KernelRegistry | null,
  bus: RunCommandBus | null,
  log: (line: string) => void,
): BatchParts {
  const { db, blobs } = storage;
  const batchEvents = new BatchChannel();
  const batches = new BatchRunner({
    db,
    blobs,
    kernels,
    channel: batchEvents,
    parallel: config.batches.parallel,
    itemTimeoutMs: config.batches.itemTimeoutMs,
    instanceId: config.scale.instanceId,
    leaseMs: config.scale.redisUrl ? config.scale.leaseMs : null,
    owners: bus && {
      cancelOnOwner: async (owner, target) => {
        await bus.send(owner, { kind: "cancel_batch", ...target });
      },
    },
    log,
  });
  // Half the kernel cap at most for the run endpoint, warm kernels included: the other half stays
  // for sessions' notebooks.
  const functionCallKernels = Math.max(1, Math.floor(config.kernels.maxKernels / 2));
  const functionCalls = kernels
    ? new WarmFunctionRunners(
        { db, blobs, kernels },
        { max: Math.min(config.functions.warmKernels, functionCallKernels), idleMs: config.functions.warmMs, maxCalls: functionCallKernels, log },
      )
    : null;
  const batchLeases = config.scale.redisUrl
    ? new BatchLeaseKeeper({ db, instanceId: config.scale.instanceId, leaseMs: config.scale.leaseMs, batches, log })
    : null;
  return { batches, batchEvents, zipUnpacks: new Semaphore(config.batches.zipUnpacks), batchLeases, functionCalls };
}
