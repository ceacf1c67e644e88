import { mkdirSync } from "node:fs";
import path from "node:path";
import { modelStatus, type ArgusConfig } from "@/lib/config";
import { BlobStore } from "@/lib/db/blobs";
import { openDatabase, pingDatabase, type Db } from "@/lib/db/database";
import { DiskSpace } from "@/lib/db/disk-space";
import { filesOfSession } from "@/lib/db/files";
import { clearSessionKernelId, sessionKernelId, setSessionKernelId } from "@/lib/db/session-kernels";
import { builtinBridgeMethods, registerBridgeMethods, type BridgeMethods } from "@/lib/kernels/bridge";
import { detectIsolation } from "@/lib/kernels/isolation";
import { detectKernelLimits, type KernelLimitsKind } from "@/lib/kernels/kernel-limits";
import {
  ExternalJupyter,
  ManagedJupyterServer,
  NoJupyter,
  type JupyterBackend,
  type JupyterStatus,
} from "@/lib/kernels/jupyter-server";
import { writeKernelspec } from "@/lib/kernels/kernelspec";
import { KernelRegistry } from "@/lib/kernels/registry";
import { refillPolicy } from "@/lib/kernels/refill-schedule";
import { ModelClient } from "@/lib/llm/models";
import { DraftChannel } from "@/lib/runtime/draft-channel";
import { DEFAULT_RUN_LIMITS, EventLog } from "@/lib/runtime/event-log";
import { RunManager } from "@/lib/runtime/run-manager";
import { agentFinished, agentsForRun } from "@/agents/registry";
import { renderToolCatalogue } from "@/agents/tool-catalogue-prompt";
import { cachedToolCatalogue } from "@/lib/kernels/tool-catalogue-cache";
import { recordCell } from "@/lib/kernels/cell-record";
import type { ToolCatalogueEntry } from "@/lib/protocol/tool-catalogue";
import { errorNote } from "@/lib/protocol/event-builders";
import { modelBridgeMethods } from "@/lib/bridge/model-tools";
import { toolChoiceMethods } from "@/lib/bridge/tool-choice";
import { createVisionService } from "@/lib/vision/service";
import { visionBridgeMethods } from "@/lib/vision-tools/bridge-method";
import type { VisionTools } from "@/lib/vision-tools/port";
import { storeExecutionImages } from "@/lib/files/generated";
import { imagePreparer } from "@/lib/files/prepare-image";
import { SessionCreationLimit } from "@/lib/sessions/creation-rate";
import type { SessionDeps } from "@/lib/sessions/service";
import { browserEngineFactory } from "@/agents/browser/make-engine";
import { createBrowserServices } from "./browser-services";
import { KeyedMutex } from "./keyed-mutex";
import { BatchChannel } from "@/lib/batches/batch-channel";
import { BatchLeaseKeeper } from "@/lib/batches/batch-leases";
import { BatchRunner } from "@/lib/batches/batch-runner";
import { WarmFunctionRunners } from "@/lib/functions/warm-runners";
import { batchStarter } from "@/lib/batches/agent-port";
import { Semaphore } from "@/lib/batches/semaphore";

import type { IsolationKind, ServerHealth } from "@/lib/protocol/health";
import { notConfiguredMessage } from "@/lib/llm/endpoint";
import { RoleHealth } from "@/lib/llm/role-health";
import { sinceStart } from "./start-clock";
import { ModelCheck } from "@/lib/doctor/model-check";
import type { ComputerManager } from "@/lib/computer/computer-manager";
import { closeRedis, connectInBackground, createRedisClient, type RedisClient } from "@/lib/scale/redis";
import { RunCommandBus } from "@/lib/scale/run-command-bus";
import { RunRouter } from "@/lib/scale/run-router";




/**
 * Everything stateful that one Argus process owns, built once by server.ts (or
 * by a test or benchmark that needs the spine without Next). Jupyter and the
 * kernel registry are not started here: `start()` does it, so the caller can
 * overlap it with its own start-up work (see server.ts).
 */
export interface ArgusCore extends SessionDeps {
  config: ArgusConfig;
  db: Db;
  blobs: BlobStore;
  events: EventLog;
  /** Live drafts of the steps being written (ephemeral; Socket.io relays them). */
  drafts: DraftChannel;
  locks: KeyedMutex;
  jupyter: JupyterBackend;
  /** Null when Argus runs without Jupyter (ARGUS_JUPYTER=off). */
  kernels: KernelRegistry | null;
  isolation: { kind: IsolationKind; reason: string };
  limits: { kind: ServerHealth["limits"]; reason: string };
  /** Model-backed methods the kernel may call over the bridge (the agents add theirs). */
  bridge: BridgeMethods;
  /** The model endpoint, or null when none is configured (messages then answer 503). */
  model: ModelClient | null;
  /** Starts, resumes and stops agent runs in this process. */
  runs: RunManager;
  /**
   * The door for starting, answering and stopping runs from a request: it holds this
   * instance's run leases and sends commands for runs owned by another instance there.
   */
  runRouter: RunRouter;
  /** The Redis client (REDIS_URL), for the Socket.io adapter; null for a lone instance. */
  redis: RedisClient | null;
  /** Free space of the data directory; new work is refused below the minimum. */
  disk: DiskSpace;
  /** How many sessions each client may still create (POST /api/sessions). */
  sessionCreation: SessionCreationLimit;
  /** The status page's "Check models" (the doctor, rate limited). */
  modelCheck: ModelCheck;
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

export async function createArgusCore(
  config: ArgusConfig,
  options: { log?: (line: string) => void } = {},
): Promise<ArgusCore> {
  for (const dir of [config.dataDir, config.sessionsDir, config.tmpDir]) mkdirSync(dir, { recursive: true });
  const log = options.log ?? (() => undefined);
  const db = await openDatabase(config.databaseUrl ?? config.dbPath);
  const blobs = new BlobStore(config.blobDir);
  const events = new EventLog(db);
  const drafts = new DraftChannel();
  const locks = new KeyedMutex();
  const bridge: BridgeMethods = { ...builtinBridgeMethods };
  // The prompts describe the kernel package's tools; asked for now, read before the runs are built.
  const catalogue: Promise<ToolCatalogueEntry[]> =
    config.jupyter.mode === "off"
      ? Promise.resolve([])
      : cachedToolCatalogue(config.python, PYTHON_DIR, path.join(config.dataDir, "cache", "tool-catalogue.json")).catch((error: unknown) => {
          log(`[argus] WARNING: could not read the vision-tool catalogue, so the prompts won't list the tools: ${String(error).slice(0, 300)}`);
          return [];
        });

  let jupyter: JupyterBackend;
  let jupyterStarting: Promise<void> | null = null;
  let isolation: ArgusCore["isolation"];
  let limits: ArgusCore["limits"] = { kind: "none", reason: "Jupyter is off" };
  if (config.jupyter.mode === "external") {
    limits = { kind: "external", reason: "the external Jupyter server or gateway sets the kernels' limits" };
    jupyter = new ExternalJupyter({ baseUrl: config.jupyter.url.replace(/\/$/, ""), token: config.jupyter.token });
    isolation = { kind: "external", reason: "kernels run on the external Jupyter server or gateway, which contains them" };
  } else if (config.jupyter.mode === "off") {
    jupyter = new NoJupyter();
    isolation = { kind: "none", reason: "Jupyter is off" };
  } else {
    const [detected, detectedLimits] = await Promise.all([
      config.kernels.sandbox === "none" ? { kind: "none" as const, reason: "ARGUS_SANDBOX=none" } : detectIsolation(),
      detectKernelLimits(config.python, PYTHON_DIR),
    ]);
    limits = detectedLimits;
    if (config.kernels.sandbox === "bubblewrap" && detected.kind !== "bubblewrap") {
      throw new Error(`ARGUS_SANDBOX=bubblewrap, but bubblewrap cannot run here: ${detected.reason}`);
    }
    isolation = detected;
    const runtimeDir = path.join(config.dataDir, "jupyter");
    writeKernelspec({
      jupyterDataDir: path.join(runtimeDir, "data"),
      python: config.python,
      launcherPath: path.join(PYTHON_DIR, "argus_sandbox", "launch_kernel.py"),
      packageDir: PYTHON_DIR,
      memoryMb: config.kernels.memoryMb,
      cpuSeconds: config.kernels.cpuSeconds,
      maxProcesses: config.kernels.maxProcesses,
      niceness: config.kernels.niceness,
      sandbox: detected.kind,
      preload: config.kernels.preload,
    });
    jupyter = new ManagedJupyterServer({
      python: config.python,
      rootDir: config.sessionsDir,
      runtimeDir,
      log: (line) => log(`[jupyter] ${line}`),
      // Unix-socket ZeroMQ channels: the sandboxed kernel has no network at all.
      extraArgs: ["--KernelManager.transport=ipc"],
    });
    // Started now, while the rest of the core (and Next) gets ready: it takes seconds, and
    // nothing it needs comes later. `start()` awaits it; the pool is filled only after.
    jupyterStarting = jupyter.start();
    jupyterStarting.catch(() => undefined);
  }

  let poolFilledOnce = false;
  const kernels =
    config.jupyter.mode === "off"
      ? null
      : new KernelRegistry({
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
          },
          uploads: async (sessionId) =>
            (await filesOfSession(db, sessionId))
              .filter((f) => f.origin === "upload")
              .map((f) => ({ name: f.name, sha256: f.sha256, bytes: () => blobs.read(f.sha256) })),
          onCell: (sessionId, cell) => recordCell({ db, dataDir: config.dataDir, log }, sessionId, cell),
          onNotice: (sessionId, text) => {
            events
              .append(sessionId, errorNote(text, "KERNEL_RESET"))
              .catch((error: unknown) => log(`[kernels] could not tell session ${sessionId}: ${String(error)}`));
          },
        });

  const roleHealth = new RoleHealth((role) => notConfiguredMessage(config.model, role) === undefined);
  const model = modelStatus(config) === "configured" ? new ModelClient(config.model, { log, onCallEnd: (role, outcome) => roleHealth.record(role, outcome) }) : null;
  const disk = new DiskSpace(config.dataDir, config.minFreeBytes);
  // Several instances (REDIS_URL): commands for a run or a batch travel to its owner over Redis.
  const redis = config.scale.redisUrl ? createRedisClient(config.scale.redisUrl, log) : null;
  if (redis) connectInBackground(redis, log);
  // loadConfig refuses REDIS_URL without ARGUS_CLUSTER_SECRET; a hand-made config must not slip past.
  if (redis && !config.scale.clusterSecret) throw new Error("Invalid configuration: ARGUS_CLUSTER_SECRET: REDIS_URL is set but ARGUS_CLUSTER_SECRET is not");
  const bus = redis ? new RunCommandBus(redis, config.scale.instanceId, config.scale.clusterSecret!, log) : null;
  const batchEvents = new BatchChannel();
  const zipUnpacks = new Semaphore(config.batches.zipUnpacks);
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
  // Several instances: batches carry leases, and a dead instance's batch goes on elsewhere.
  const batchLeases = config.scale.redisUrl ? new BatchLeaseKeeper({ db, instanceId: config.scale.instanceId, leaseMs: config.scale.leaseMs, batches, log }) : null;

  // The kernel's calls back into the server, registered once what they use exists. The neural
  // tools need no model endpoint: they run on this machine.
  const vision = createVisionService({ workers: config.vision.workers, queueLimit: config.vision.queueLimit });
  registerBridgeMethods(bridge, visionBridgeMethods(vision, config.limits.maxUploadBytes));
  if (model) {
    registerBridgeMethods(bridge, modelBridgeMethods(model));
    if (kernels) registerBridgeMethods(bridge, toolChoiceMethods({ kernels, db, blobs, model, sessionsDir: config.sessionsDir }));
  }

  const prepareImage = imagePreparer({ db, blobs });
  const browser = model ? createBrowserServices({ db, blobs, events, config, locks, kernels }, log) : null;
  const catalogueSection = renderToolCatalogue(await catalogue);
  const runs = new RunManager(
    {
      db,
      events,
      drafts,
      disk,
      kernels,
      storeCellImages: (sessionId, execution, label) => storeExecutionImages({ db, blobs }, sessionId, execution, label),
      // What each agent's finish does is its descriptor's (the coder's function is kept).
      onAgentFinished: (finished) => agentFinished({ db, log }, finished),
      cellTimeoutMs: config.kernels.cellTimeoutMs,
      bridgeCallsPerCell: config.kernels.bridgeCallsPerCell,
      browser: browser?.steps ?? null,
      agents: (run) =>
        agentsForRun(
          {
            db,
            prepareImage,
            plannerMaxTurns: config.agents.plannerMaxTurns,
            catalogue: catalogueSection,
            startBatch: kernels ? batchStarter({ db, blobs, config, batches, zipUnpacks }) : null,
            browser: browser && {
              maxSteps: config.browser.maxSteps,
              viewport: browser.computers.dimensions,
              screenEdge: config.browser.screenEdge,
              makeEngine: browserEngineFactory(config.browser.api),
            },
          },
          run,
        ),
    },
    model,
    { limits: { ...DEFAULT_RUN_LIMITS, maxTurns: config.agents.plannerMaxTurns, maxWallClockMs: config.agents.runMaxMs, maxTokens: config.agents.runMaxTokens } },
  );

  const runRouter = new RunRouter({
    db,
    events,
    runs,
    instanceId: config.scale.instanceId,
    leaseMs: config.scale.leaseMs,
    bus,
    log,
    onTakenOver: async (sessionId) => kernels?.interruptAbandonedCell(sessionId),
    cancelBatchHere: (batchId, settleWithinMs) => batches.cancelHere(batchId, settleWithinMs),
  });

  let closed = false;
  const core: ArgusCore = {
    config,
    db,
    blobs,
    events,
    drafts,
    locks,
    jupyter,
    kernels,
    isolation,
    limits,
    bridge,
    model,
    runs,
    runRouter,
    redis,
    disk,
    sessionCreation: new SessionCreationLimit(config.sessionRatePerMinute),
    modelCheck: new ModelCheck(config.model, Date.now, config.browser.api),
    computers: browser?.computers ?? null,
    batches,
    zipUnpacks,
    batchEvents,
    functionCalls,
    vision,
    pythonDir: PYTHON_DIR,
    async start() {
      if (isolation.kind === "none" && config.jupyter.mode === "managed") {
        log(`[argus] WARNING: kernels run WITHOUT a filesystem sandbox (${isolation.reason}); model-written code can read this machine's files.`);
      }
      if (limits.kind === "rlimit") {
        log(`[argus] WARNING: no cgroup per kernel (${limits.reason}); memory and process limits hold per process only, so one cell can start many processes.`);
      }
      await runRouter.start();
      await (jupyterStarting ?? jupyter.start());
      jupyterStarting = null;
      await kernels?.start();
      // Batches a stopped server left running go on from their first unfinished item.
      const resumed = await batches.resumeAll();
      if (resumed > 0) log(`[argus] resumed ${resumed} batch run(s)`);
      batchLeases?.start();
    },
    async health() {
      const dbUp = await pingDatabase(db);
      const jupyterStatus = await jupyter.status();
      const jupyterOk = jupyterStatus === "up" || jupyterStatus === "off";
      return {
        ok: dbUp && jupyterOk,
        db: dbUp ? "up" : "down",
        jupyter: jupyterStatus,
        model: modelStatus(config),
        isolation: isolation.kind,
        limits: limits.kind,
        disk: disk.freeBytes() === null ? "unknown" : disk.low() ? "low" : "ok",
        models: roleHealth.snapshot(),
        vision: vision.health(),
        ...(Object.keys(roleHealth.notes()).length > 0 ? { modelNotes: roleHealth.notes() } : {}),
        ...(kernels ? { kernels: { ...kernels.stats(), poolSize: config.kernels.poolSize } } : {}),
        ...(redis ? { redis: redis.isReady ? ("up" as const) : ("down" as const), instance: config.scale.instanceId } : {}),
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      await runRouter.close();
      if (redis) await closeRedis(redis);
      await browser?.computers.closeAll().catch(() => undefined);
      await batchLeases?.close();
      await batches.close().catch(() => undefined);
      await functionCalls?.close().catch(() => undefined);
      await kernels?.close().catch(() => undefined);
      await Promise.resolve(vision.close()).catch(() => undefined);
      await jupyter.stop();
      await db.close();
    },
  };
  const interrupted = await runRouter.recoverAtStart();
  if (interrupted > 0) log(`[argus] marked ${interrupted} run(s) interrupted by the last stop`);
  return core;
}
