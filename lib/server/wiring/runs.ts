import type { ArgusConfig } from "@/lib/foundation/config";
import { storeExecutionImages } from "@/lib/engines/files/generated";
import type { BatchRunner } from "@/lib/features/batches/batch-runner";
import type { BrowserPort } from "@/lib/features/runtime/browser-port";
import type { KernelRegistry } from "@/lib/engines/kernels/registry";
import type { ModelClient } from "@/lib/engines/llm/models";
import { DEFAULT_RUN_LIMITS } from "@/lib/features/runtime/event-log";
import { RunManager, type RunManagerDeps } from "@/lib/features/runtime/run-manager";
import type { RunCommandBus } from "@/lib/features/scale/run-command-bus";
import { RunRouter } from "@/lib/features/scale/run-router";
import type { Storage } from "./storage";

export interface RunParts {
  /** Starts, resumes and stops agent runs in this process. */
  runs: RunManager;
  /**
   * The door for starting, answering and stopping runs from a request: it holds this
   * instance's run leases and sends commands for runs owned by another instance there.
   */
  runRouter: RunRouter;
}

/** The runs: the run manager over the agent policy, and the router in front of it. */
export function buildRuns(
  config: ArgusConfig,
  storage: Storage,
  parts: {
    kernels: KernelRegistry | null;
    /** False while this instance's Jupyter is not running: dead owners' runs are left to instances that can carry them on. */
    canRunKernels: () => boolean;
    model: ModelClient | null;
    browser: BrowserPort | null;
    policy: Pick<RunManagerDeps, "agents" | "onAgentFinished">;
    batches: BatchRunner;
    bus: RunCommandBus | null;
  },
  log: (line: string) => void,
): RunParts {
  const { db, blobs, events, drafts, disk } = storage;
  const { kernels } = parts;
  const runs = new RunManager(
    {
      db,
      events,
      drafts,
      disk,
      kernels,
      storeCellImages: (sessionId, execution, label) => storeExecutionImages({ db, blobs }, sessionId, execution, label),
      cellTimeoutMs: config.kernels.cellTimeoutMs,
      bridgeCallsPerCell: config.kernels.bridgeCallsPerCell,
      browser: parts.browser,
      ...parts.policy,
    },
    parts.model,
    { limits: { ...DEFAULT_RUN_LIMITS, maxTurns: config.agents.plannerMaxTurns, maxWallClockMs: config.agents.runMaxMs, maxTokens: config.agents.runMaxTokens } },
  );
  const runRouter = new RunRouter({
    db,
    events,
    runs,
    instanceId: config.scale.instanceId,
    leaseMs: config.scale.leaseMs,
    resumeRuns: config.scale.resumeRuns,
    canRunKernels: parts.canRunKernels,
    bus: parts.bus,
    log,
    onTakenOver: async (sessionId) => kernels?.interruptAbandonedCell(sessionId),
    cancelBatchHere: (batchId, settleWithinMs) => parts.batches.cancelHere(batchId, settleWithinMs),
  });
  return { runs, runRouter };
}
