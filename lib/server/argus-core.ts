import path from "node:path";
import type { ArgusConfig } from "@/lib/foundation/config";
import { agentPolicy } from "@/agents/run-policy";
import { renderToolCatalogue } from "@/agents/tool-catalogue-prompt";
import type { KeyedMutex } from "@/lib/foundation/common/keyed-mutex";
import type { BatchChannel } from "@/lib/features/batches/batch-channel";
import type { BatchRunner } from "@/lib/features/batches/batch-runner";
import type { Semaphore } from "@/lib/features/batches/semaphore";
import type { ComputerManager } from "@/lib/engines/computer/computer-manager";
import type { BlobStore } from "@/lib/engines/db/blobs";
import type { Db } from "@/lib/engines/db/database";
import type { DiskSpace } from "@/lib/engines/db/disk-space";
import type { ModelCheck } from "@/lib/features/doctor/model-check";
import type { WarmFunctionRunners } from "@/lib/features/functions/warm-runners";
import { builtinBridgeMethods, type BridgeMethods } from "@/lib/engines/kernels/bridge";
import { chooseJupyterBackend, type JupyterChoice } from "@/lib/engines/kernels/jupyter-backend-choice";
import type { JupyterBackend } from "@/lib/engines/kernels/jupyter-server";
import type { KernelRegistry } from "@/lib/engines/kernels/registry";
import type { ModelClient } from "@/lib/engines/llm/models";
import type { ServerHealth } from "@/lib/foundation/protocol/health";
import type { DraftChannel } from "@/lib/features/runtime/draft-channel";
import type { WaitChannel } from "@/lib/features/runtime/wait-channel";
import { EndpointModelList } from "@/lib/engines/llm/endpoint-models";
import type { EventLog } from "@/lib/features/runtime/event-log";
import type { RunManager } from "@/lib/features/runtime/run-manager";
import type { RedisClient } from "@/lib/features/scale/redis";
import type { RunRouter } from "@/lib/features/scale/run-router";
import { SessionCreationLimit } from "@/lib/features/sessions/creation-rate";
import type { SessionDeps } from "@/lib/features/sessions/service";
import type { VisionTools } from "@/lib/features/vision-tools/port";
import { buildBatches } from "./wiring/batches";
import { createBrowserServices } from "./wiring/browser";
import { healthReport } from "./wiring/health";
import { addKernelCalls } from "./wiring/kernel-calls";
import { buildKernels, readToolCatalogue } from "./wiring/kernels";
import { lifecycle } from "./wiring/lifecycle";
import { buildModel } from "./wiring/model";
import { buildRuns } from "./wiring/runs";
import { buildScale } from "./wiring/scale";
import { closeRedis } from "@/lib/features/scale/redis";
import { refuseDuplicateId } from "@/lib/features/scale/run-recovery";
import { buildStorage } from "./wiring/storage";

/**
 * Everything stateful that one Argus process owns, built once by server.ts (or
 * by a test or benchmark that needs the spine without Next). Jupyter and the
 * kernel registry are not started here: `start()` does it, so the caller can
 * overlap it with its own start-up work (see server.ts); `start()` also marks the runs the last
 * stop cut off interrupted, so a server attaches Socket.io first, for its clients to hear it. Route handlers never
 * see this whole object: they ask for the area they serve (./areas.ts).
 */
export interface ArgusCore extends SessionDeps {
  config: ArgusConfig;
  db: Db;
  blobs: BlobStore;
  events: EventLog;
  /** Live drafts of the steps being written (ephemeral; Socket.io relays them). */
  drafts: DraftChannel;
  /** What a session's runs wait for while they wait (ephemeral; Socket.io relays them). */
  waits: WaitChannel;
  locks: KeyedMutex;
  jupyter: JupyterBackend;
  /** Null when Argus runs without Jupyter (ARGUS_JUPYTER=off). */
  kernels: KernelRegistry | null;
  isolation: JupyterChoice["isolation"];
  limits: JupyterChoice["limits"];
  /** Model-backed methods the kernel may call over the bridge (the agents add theirs). */
  bridge: BridgeMethods;
  /** The model endpoint, or null when none is configured (messages then answer 503). */
  model: ModelClient | null;
  /** Starts, resumes and stops agent runs in this process. */
  runs: RunManager;
  /** Starts, answers and stops runs from a request, wherever the run's owner is (lib/features/scale). */
  runRouter: RunRouter;
  /** The Redis client (REDIS_URL), for the Socket.io adapter; null for a lone instance. */
  redis: RedisClient | null;
  /** Free space of the data directory; new work is refused below the minimum. */
  disk: DiskSpace;
  /** How many sessions each client may still create (POST /api/sessions). */
  sessionCreation: SessionCreationLimit;
  /** The status page's "Check models" (the doctor, rate limited). */
  modelCheck: ModelCheck;
  /** What the model endpoint lists (`GET /models`), for the chat's model picker; asked with the server's key. */
  endpointModels: EndpointModelList;
  /** Session browsers; null when browsing is off (no browser model, or no Chromium). */
  computers: ComputerManager | null;
  /** Batch runs of a session function over many files (issue #15). */
  batches: BatchRunner;
  /** Batch requests unpacking zips at once (ARGUS_BATCH_ZIP_UNPACKS); a request past it gets 429. */
  zipUnpacks: Semaphore;
  /** Batch state changes, relayed by Socket.io as `batch`. */
  batchEvents: BatchChannel;
  /** Kernels kept warm between HTTP calls of a session's function; null without kernels. */
  functionCalls: WarmFunctionRunners | null;
  /** The neural vision tools (issue #27): models loaded once, run off the event loop, for kernels and HTTP alike. */
  vision: VisionTools;
  /** The repository's Python (the kernel package), which an exported function carries. */
  pythonDir: string;
  start(): Promise<void>;
  health(): Promise<ServerHealth>;
  close(): Promise<void>;
}

/** Where the repository's Python lives (kernel package, launchers, extension). */
export const PYTHON_DIR = path.join(process.cwd(), "python");

/**
 * The composition root: each step builds its part from the parts before it (./wiring/*), in
 * dependency order — storage, scale-out (refusing an instance id a live process uses), Jupyter,
 * kernels, model, batches, the kernel's calls, browsing, agent policy, runs — and nothing is
 * assigned back into an earlier part.
 */
export async function createArgusCore(config: ArgusConfig, options: { log?: (line: string) => void } = {}): Promise<ArgusCore> {
  const log = options.log ?? (() => undefined);
  const storage = await buildStorage(config);
  const { redis, bus } = buildScale(config, log);
  // Before anything starts or is written: a second process under an instance id in use stops here.
  await refuseDuplicateId({ bus, instanceId: config.scale.instanceId, log }).catch(async (error: unknown) => {
    if (redis) await closeRedis(redis);
    await storage.db.close();
    throw error;
  });
  const bridge: BridgeMethods = { ...builtinBridgeMethods };
  // The prompts describe the kernel package's tools; asked for now, read before the runs are built.
  const catalogue = readToolCatalogue(config, PYTHON_DIR, log);
  const jupyter = await chooseJupyterBackend(config, PYTHON_DIR, log);
  const kernels = buildKernels(config, storage, jupyter.jupyter, bridge, log);
  const { model, roleHealth, modelCheck } = buildModel(config, log);
  const batchParts = buildBatches(config, storage, kernels, bus, log);
  const vision = addKernelCalls(config, bridge, { ...storage, kernels, model });
  const browser = model ? createBrowserServices({ ...storage, config, kernels }, log) : null;
  const policy = agentPolicy({
    ...storage,
    config,
    catalogue: renderToolCatalogue(await catalogue),
    batches: kernels ? { batches: batchParts.batches, zipUnpacks: batchParts.zipUnpacks } : null,
    browserViewport: browser?.computers.dimensions ?? null,
    log,
  });
  // Kernels can run unless a managed jupyter-server is not running (it failed to start: lifecycle.ts tries again).
  const canRunKernels = () => jupyter.jupyter.mode !== "managed" || jupyter.jupyter.endpoint() !== null;
  const runParts = buildRuns(config, storage, { kernels, canRunKernels, model, browser: browser?.steps ?? null, policy, batches: batchParts.batches, bus }, log);
  const { start, close } = lifecycle(config, { db: storage.db, jupyter, kernels, runs: runParts, batches: batchParts, browser, vision, redis }, log);

  const core: ArgusCore = {
    config,
    ...storage,
    jupyter: jupyter.jupyter,
    kernels,
    isolation: jupyter.isolation,
    limits: jupyter.limits,
    bridge,
    model,
    ...runParts,
    redis,
    sessionCreation: new SessionCreationLimit(config.sessionRatePerMinute),
    modelCheck,
    endpointModels: new EndpointModelList(config.model),
    computers: browser?.computers ?? null,
    batches: batchParts.batches,
    zipUnpacks: batchParts.zipUnpacks,
    batchEvents: batchParts.batchEvents,
    functionCalls: batchParts.functionCalls,
    vision,
    pythonDir: PYTHON_DIR,
    start,
    health: healthReport(config, { ...storage, jupyter, kernels, roleHealth, vision, redis }),
    close,
  };
  return core;
}
