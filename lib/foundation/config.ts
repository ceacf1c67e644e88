// ArgusConfig: the settings of lib/foundation/config-env.ts, checked and resolved into the shape the server
// uses (paths made absolute, units converted, settings that depend on each other reconciled).
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { parseAllowList, parseBlockList, type UrlPolicy } from "./net/url-policy";
import {
  EnvSchema,
  REQUIRED_ROLES,
  ROLES,
  type BrowserApi,
  type BrowserApiSetting,
  type ModelRole,
  type ToolProtocolSetting,
  type WorkspaceTransport,
} from "./config-env";

// Importers name roles, protocols and transports through lib/foundation/config, beside ArgusConfig.
export {
  BROWSER_APIS,
  MODEL_ROLES,
  REQUIRED_ROLES,
  TOOL_PROTOCOLS,
  WORKSPACE_TRANSPORTS,
  type BrowserApi,
  type BrowserApiSetting,
  type ModelRole,
  type ToolProtocolSetting,
  type WorkspaceTransport,
} from "./config-env";

/** ARGUS_BROWSER_API resolved for the browser model (null: none configured, which is chat). */
export function chooseBrowserApi(setting: BrowserApiSetting, modelName: string | null): BrowserApi {
  if (setting !== "auto") return setting;
  return modelName !== null && /computer-use/i.test(modelName) ? "responses" : "chat";
}

export interface ArgusConfig {
  port: number;
  host: string;
  /** `ARGUS_ALLOWED_HOSTS` as given (see lib/server/allowed-hosts.ts); null for the default. */
  allowedHosts: string | null;
  dataDir: string;
  dbPath: string;
  /** DATABASE_URL: Postgres when set; null keeps the SQLite file at dbPath. */
  databaseUrl: string | null;
  blobDir: string;
  sessionsDir: string;
  tmpDir: string;
  limits: { maxUploadBytes: number; maxImagePixels: number; maxVideoSeconds: number };
  /** Batch runs: files per batch, items in flight at once. */
  batches: { maxFiles: number; parallel: number; itemTimeoutMs: number; zipUnpacks: number };
  python: string;
  jupyter:
    | { mode: "managed" }
    | { mode: "external"; url: string; token: string }
    | { mode: "off" };
  model: {
    apiKey: string | null;
    baseUrl: string | null;
    byRole: Record<ModelRole, string | null>;
    /** ARGUS_TOOL_PROTOCOL_<ROLE>, else ARGUS_TOOL_PROTOCOL. */
    protocolByRole: Record<ModelRole, ToolProtocolSetting>;
    /** Silence allowed per attempt before it is abandoned as a timeout (and retried). */
    timeoutMs: number;
    /** Retries after the first attempt for transient failures (429, 5xx, network, timeout). */
    maxRetries: number;
  };
  secureCookies: boolean;
  /** Free bytes the data directory must keep before new work is accepted. */
  minFreeBytes: number;
  /** Sessions one client may create per minute (also the burst). */
  sessionRatePerMinute: number;
  /** ARGUS_TRUSTED_PROXIES as given: whose X-Forwarded-For names the client (lib/foundation/common/trusted-proxies.ts). */
  trustedProxies: string;
  agents: {
    /** The planner's exploring turns per run (DESIGN §4). */
    plannerMaxTurns: number;
    /** Wall-clock budget of one run. */
    runMaxMs: number;
    /** Tokens one run may spend, its model-backed tool calls included. */
    runMaxTokens: number;
  };
  /** One call of a kept session function (lib/features/functions). */
  functions: { timeoutMs: number; maxOutputChars: number; warmKernels: number; warmMs: number };
  /** The neural vision engine: inference threads (undefined: its own default) and waiting calls. */
  vision: { workers: number | undefined; queueLimit: number };
  kernels: {
    poolSize: number;
    /** What kernels import before they are ready: "vision" moves the imports' seconds into the pool. */
    preload: "vision" | "none";
    /** Quiet time before the pool refills after a take or a cell; 0 refills at once. */
    refillQuietMs: number;
    /** Live kernels at most, pooled and isolated ones included. */
    maxKernels: number;
    idleMs: number;
    /** At the cap, a session kernel idle this long is shut down to let another session start one. */
    yieldIdleMs: number;
    cellTimeoutMs: number;
    memoryMb: number;
    cpuSeconds: number;
    /** Processes and threads per kernel, held by its cgroup where there is one. */
    maxProcesses: number;
    /** Kernels' nice value (python/argus_sandbox/priority.py): how readily cells give the CPU to the server. */
    niceness: number;
    /** Disk one workspace may hold; past it each cell ends with an error until files are deleted. */
    workspaceMaxBytes: number;
    sandbox: "auto" | "bubblewrap" | "none";
    /** How files reach the kernel's workspace and come back (WORKSPACE_TRANSPORTS). */
    workspaceTransport: WorkspaceTransport;
    /** Kernelspec to start: Argus's sandboxed one for a managed server, python3 on a gateway. */
    kernelName: string;
    /** Calls to model-backed tools (vqa, describe…) one cell may make. */
    bridgeCallsPerCell: number;
  };
  browser: {
    chromiumPath: string;
    /** ARGUS_BROWSER_BLOCK and ARGUS_BROWSER_ALLOW, parsed (lib/foundation/net/url-policy.ts). */
    policy: UrlPolicy;
    idleMs: number;
    maxDownloadBytes: number;
    maxSteps: number;
    screenEdge: number;
    deviceScale: number;
    /** ARGUS_BROWSER_API resolved for the browser model: which protocol the browsing agent speaks. */
    api: BrowserApi;
  };
  scale: {
    /** REDIS_URL: null keeps Socket.io in-process and runs unreachable from other instances. */
    redisUrl: string | null;
    /** ARGUS_CLUSTER_SECRET: the key run commands between instances are signed with (set whenever redisUrl is). */
    clusterSecret: string | null;
    /** ARGUS_INSTANCE_ID, or `<host>-<random>` made at start; `fixedInstanceId` is the one given, or null (a lone instance). */
    instanceId: string;
    fixedInstanceId: string | null;
    leaseMs: number;
    /** Runs whose owner died, stalled or restarted go on from the log where their lease is taken (lib/features/scale/run-takeover.ts). */
    resumeRuns: boolean;
  };
}

/** Where the kernel-side Python lives: explicit, then the setup script's venv, then Debian's. */
function resolvePython(explicit: string | undefined, root: string): string {
  if (explicit) return explicit;
  const venv = path.join(root, ".argus", "venv", "bin", "python");
  if (existsSync(venv)) return venv;
  return "/usr/bin/python3";
}

/**
 * Argus's own jupyter-server starts only its sandboxed kernelspec; another name is for a server
 * someone else runs. With a URL it is argus-python too unless told otherwise: only its launcher
 * loads the helpers (load_image, …) and the sandbox, so a plain `python3` failed every planner cell.
 */
function kernelName(configured: string | undefined, mode: ArgusConfig["jupyter"]["mode"]): string {
  if (mode !== "external") {
    if (configured !== undefined && configured !== "argus-python") {
      throw new Error("Invalid configuration: ARGUS_KERNEL_NAME: Argus's own jupyter-server starts only its sandboxed argus-python kernels; set another name only with JUPYTER_URL");
    }
    return "argus-python";
  }
  return configured ?? "argus-python";
}

/**
 * `kernel` only with an external Jupyter: Argus's own server starts remote-style kernels in its
 * root, the sessions directory, which its sandbox would then bind whole into every kernel.
 */
function workspaceTransport(configured: WorkspaceTransport | undefined, mode: ArgusConfig["jupyter"]["mode"]): WorkspaceTransport {
  if (configured === "kernel" && mode !== "external") {
    throw new Error("Invalid configuration: ARGUS_WORKSPACE_TRANSPORT: \"kernel\" is for a Jupyter server on another host (set JUPYTER_URL); Argus's own jupyter-server shares its data directory, so use \"shared\"");
  }
  return configured ?? "shared";
}

/**
 * Whoever can publish to Redis could otherwise post into any chat and start runs on any instance:
 * with REDIS_URL every run command is signed with this secret, so an instance without one must not start.
 */
function clusterSecret(redisUrl: string | undefined, secret: string | undefined): string | null {
  if (redisUrl && !secret) {
    throw new Error(
      "Invalid configuration: ARGUS_CLUSTER_SECRET: REDIS_URL is set but ARGUS_CLUSTER_SECRET is not; give every instance the same secret of at least 32 characters (e.g. `openssl rand -hex 32`)",
    );
  }
  return secret ?? null;
}

export function loadConfig(env: Record<string, string | undefined> = process.env, root = process.cwd()): ArgusConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = issue?.path.join(".") ?? "environment";
    throw new Error(`Invalid configuration: ${name}: ${issue?.message ?? "invalid value"}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(root, e.ARGUS_DATA_DIR);
  const byRole = Object.fromEntries(
    ROLES.map((role) => [role.toLowerCase(), e[`ARGUS_MODEL_${role}`] ?? e.ARGUS_MODEL ?? null]),
  ) as Record<ModelRole, string | null>;
  const protocolByRole = Object.fromEntries(
    ROLES.map((role) => [role.toLowerCase(), e[`ARGUS_TOOL_PROTOCOL_${role}`] ?? e.ARGUS_TOOL_PROTOCOL]),
  ) as Record<ModelRole, ToolProtocolSetting>;

  let jupyter: ArgusConfig["jupyter"];
  if (e.JUPYTER_URL) {
    if (e.JUPYTER_TOKEN === undefined) {
      throw new Error(
        "Invalid configuration: JUPYTER_TOKEN: JUPYTER_URL is set but JUPYTER_TOKEN is not; set the server's token (JUPYTER_TOKEN= empty only if that server has authentication turned off)",
      );
    }
    jupyter = { mode: "external", url: e.JUPYTER_URL.replace(/\/+$/, ""), token: e.JUPYTER_TOKEN };
  }
  else if (e.ARGUS_JUPYTER === "off") jupyter = { mode: "off" };
  else jupyter = { mode: "managed" };

  return {
    port: e.PORT,
    host: e.HOST,
    allowedHosts: e.ARGUS_ALLOWED_HOSTS ?? null,
    dataDir,
    dbPath: e.ARGUS_DB_PATH ? path.resolve(root, e.ARGUS_DB_PATH) : path.join(dataDir, "argus.db"),
    databaseUrl: e.DATABASE_URL ?? null,
    blobDir: path.join(dataDir, "blobs"),
    sessionsDir: path.join(dataDir, "sessions"),
    tmpDir: path.join(dataDir, "tmp"),
    limits: {
      maxUploadBytes: Math.round(e.ARGUS_MAX_UPLOAD_MB * 1024 * 1024),
      maxImagePixels: Math.round(e.ARGUS_MAX_IMAGE_MEGAPIXELS * 1_000_000),
      maxVideoSeconds: e.ARGUS_MAX_VIDEO_SECONDS,
    },
    batches: { maxFiles: e.ARGUS_BATCH_MAX_FILES, parallel: e.ARGUS_BATCH_PARALLEL, itemTimeoutMs: e.ARGUS_BATCH_ITEM_TIMEOUT_SECONDS * 1000, zipUnpacks: e.ARGUS_BATCH_ZIP_UNPACKS },
    python: resolvePython(e.ARGUS_PYTHON, root),
    jupyter,
    model: {
      apiKey: e.OPENAI_API_KEY ?? null,
      baseUrl: e.OPENAI_BASE_URL ?? null,
      byRole,
      protocolByRole,
      timeoutMs: e.ARGUS_MODEL_TIMEOUT_SECONDS * 1000,
      maxRetries: e.ARGUS_MODEL_MAX_RETRIES,
    },
    secureCookies: e.ARGUS_SECURE_COOKIES === "1",
    minFreeBytes: e.ARGUS_MIN_FREE_MB * 1024 * 1024,
    sessionRatePerMinute: e.ARGUS_SESSION_RATE_PER_MINUTE,
    trustedProxies: e.ARGUS_TRUSTED_PROXIES,
    agents: { plannerMaxTurns: e.ARGUS_PLANNER_MAX_TURNS, runMaxMs: e.ARGUS_RUN_MAX_MINUTES * 60_000, runMaxTokens: e.ARGUS_RUN_MAX_TOKENS },
    functions: {
      timeoutMs: e.ARGUS_FUNCTION_TIMEOUT_SECONDS * 1000,
      maxOutputChars: e.ARGUS_FUNCTION_MAX_OUTPUT_CHARS,
      warmKernels: e.ARGUS_FUNCTION_WARM_KERNELS,
      warmMs: e.ARGUS_FUNCTION_WARM_SECONDS * 1000,
    },
    vision: { workers: e.ARGUS_VISION_WORKERS, queueLimit: e.ARGUS_VISION_QUEUE },
    kernels: {
      poolSize: e.ARGUS_KERNEL_POOL,
      preload: e.ARGUS_KERNEL_PRELOAD,
      refillQuietMs: e.ARGUS_POOL_REFILL_QUIET_MS,
      idleMs: e.ARGUS_KERNEL_IDLE_MINUTES * 60_000,
      yieldIdleMs: e.ARGUS_KERNEL_YIELD_IDLE_SECONDS * 1000,
      cellTimeoutMs: e.ARGUS_CELL_TIMEOUT_SECONDS * 1000,
      memoryMb: e.ARGUS_KERNEL_MEMORY_MB,
      cpuSeconds: e.ARGUS_KERNEL_CPU_SECONDS,
      maxProcesses: e.ARGUS_KERNEL_MAX_PROCESSES,
      niceness: e.ARGUS_KERNEL_NICE,
      workspaceMaxBytes: e.ARGUS_WORKSPACE_MAX_MB * 1024 * 1024,
      sandbox: e.ARGUS_SANDBOX,
      workspaceTransport: workspaceTransport(e.ARGUS_WORKSPACE_TRANSPORT, jupyter.mode),
      maxKernels: e.ARGUS_MAX_KERNELS,
      kernelName: kernelName(e.ARGUS_KERNEL_NAME, jupyter.mode),
      bridgeCallsPerCell: e.ARGUS_BRIDGE_CALLS_PER_CELL,
    },
    browser: {
      chromiumPath: e.ARGUS_CHROMIUM,
      policy: { block: parseBlockList(e.ARGUS_BROWSER_BLOCK), allow: parseAllowList(e.ARGUS_BROWSER_ALLOW) },
      idleMs: e.ARGUS_BROWSER_IDLE_MINUTES * 60_000,
      maxDownloadBytes: Math.round(e.ARGUS_BROWSER_MAX_DOWNLOAD_MB * 1024 * 1024),
      maxSteps: e.ARGUS_BROWSER_MAX_STEPS,
      screenEdge: e.ARGUS_BROWSER_SCREEN_EDGE,
      deviceScale: e.ARGUS_BROWSER_DEVICE_SCALE,
      api: chooseBrowserApi(e.ARGUS_BROWSER_API, byRole.browser),
    },
    scale: {
      redisUrl: e.REDIS_URL ?? null,
      clusterSecret: clusterSecret(e.REDIS_URL, e.ARGUS_CLUSTER_SECRET),
      instanceId: e.ARGUS_INSTANCE_ID ?? `${hostname().replace(/[^A-Za-z0-9._-]/g, "").slice(0, 60) || "argus"}-${randomBytes(4).toString("hex")}`,
      fixedInstanceId: e.ARGUS_INSTANCE_ID ?? null,
      leaseMs: Math.round(e.ARGUS_RUN_LEASE_SECONDS * 1000),
      resumeRuns: e.ARGUS_RESUME_RUNS === "on",
    },
  };
}

/** A model is usable when every role has a name and there is a key or a local endpoint. */
export function modelStatus(config: ArgusConfig): "configured" | "not_configured" {
  const named = REQUIRED_ROLES.every((role) => config.model.byRole[role] !== null);
  const reachable = config.model.apiKey !== null || config.model.baseUrl !== null;
  return named && reachable ? "configured" : "not_configured";
}
