import path from "node:path";
import type { ArgusConfig } from "@/lib/foundation/config";
import { filesOfSession } from "@/lib/engines/db/files";
import { clearSessionKernelId, sessionHoldingKernel, sessionKernelId, setSessionKernelId } from "@/lib/engines/db/session-kernels";
import type { BridgeMethods } from "@/lib/engines/kernels/bridge";
import { recordCell } from "@/lib/engines/kernels/cell-record";
import { KernelLedger } from "@/lib/engines/kernels/kernel-ledger";
import type { JupyterBackend } from "@/lib/engines/kernels/jupyter-server";
import { refillPolicy } from "@/lib/engines/kernels/refill-schedule";
import { KernelRegistry } from "@/lib/engines/kernels/registry";
import { cachedToolCatalogue } from "@/lib/engines/kernels/tool-catalogue-cache";
import { errorNote } from "@/lib/foundation/protocol/event-builders";
import type { ToolCatalogueEntry } from "@/lib/foundation/protocol/tool-catalogue";
import { sinceStart } from "../start-clock";
import type { Storage } from "./storage";

/**
 * The kernel registry over the chosen Jupyter: kernels find their session's uploads and kernel id
 * in the database, record their cells, and tell the session when a kernel was reset. Null when
 * Jupyter is off. `bridge` is the map of server methods a kernel may call; the later steps add
 * theirs to it once what they use exists.
 */
export function buildKernels(
  config: ArgusConfig,
  storage: Storage,
  jupyter: JupyterBackend,
  bridge: BridgeMethods,
  log: (line: string) => void,
): KernelRegistry | null {
  if (config.jupyter.mode === "off") return null;
  const { db, blobs, events, locks, waits } = storage;
  let poolFilledOnce = false;
  return new KernelRegistry({
    jupyter,
    sessionsDir: config.sessionsDir,
    kernelName: config.kernels.kernelName,
    poolSize: config.kernels.poolSize,
    preload: config.kernels.preload,
    refillPolicy: refillPolicy(config.kernels.refillQuietMs),
    // An external server's memory is not this machine's to judge.
    availableMemory: config.jupyter.mode === "external" ? null : undefined,
    maxKernels: config.kernels.maxKernels,
    workspaceMaxBytes: config.kernels.workspaceMaxBytes,
    idleMs: config.kernels.idleMs,
    yieldIdleMs: config.kernels.yieldIdleMs,
    cellTimeoutMs: config.kernels.cellTimeoutMs,
    interruptGraceMs: 3000,
    locks,
    bridge,
    log,
    onFull: () => {
      if (poolFilledOnce) return;
      poolFilledOnce = true;
      log(`[argus] kernel pool full (${config.kernels.poolSize} ready): ${sinceStart()}`);
    },
    transport: config.kernels.workspaceTransport,
    // A shared Jupyter outlives this process: its notebooks are left for the next instance.
    keepSessionKernelsOnClose: config.jupyter.mode === "external",
    kernelIds: {
      get: (sessionId) => sessionKernelId(db, sessionId),
      set: (sessionId, kernelId) => setSessionKernelId(db, sessionId, kernelId),
      clear: (sessionId, kernelId) => clearSessionKernelId(db, sessionId, kernelId),
      holder: (kernelId) => sessionHoldingKernel(db, kernelId),
    },
    // A restarted instance shuts down the pooled kernels its earlier run left on the shared server.
    ...(config.jupyter.mode === "external" ? { ledger: KernelLedger.forInstance(config.dataDir, config.scale.instanceId) } : {}),
    uploads: async (sessionId) =>
      (await filesOfSession(db, sessionId))
        .filter((f) => f.origin === "upload")
        .map((f) => ({ name: f.name, sha256: f.sha256, bytes: () => blobs.read(f.sha256) })),
    onWait: (sessionId, wait) => waits.publish(sessionId, wait),
    onCell: (sessionId, cell) => recordCell({ db, dataDir: config.dataDir, log }, sessionId, cell),
    onNotice: (sessionId, text) => {
      events
        .append(sessionId, errorNote(text, "KERNEL_RESET"))
        .catch((error: unknown) => log(`[kernels] could not tell session ${sessionId}: ${String(error)}`));
    },
  });
}

/**
 * The kernel package's tools, which the prompts describe: asked for first (it runs Python), read
 * when the agent policy is built. Empty without Jupyter or when it cannot be read.
 */
export function readToolCatalogue(config: ArgusConfig, pythonDir: string, log: (line: string) => void): Promise<ToolCatalogueEntry[]> {
  if (config.jupyter.mode === "off") return Promise.resolve([]);
  return cachedToolCatalogue(config.python, pythonDir, path.join(config.dataDir, "cache", "tool-catalogue.json")).catch((error: unknown) => {
    log(`[argus] WARNING: could not read the vision-tool catalogue, so the prompts won't list the tools: ${String(error).slice(0, 300)}`);
    return [];
  });
}
