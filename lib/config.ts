import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { z } from "zod";
import { MODEL_ROLES, REQUIRED_ROLES, type ModelRole } from "@/lib/protocol/agent-cards";
import { parseAllowList, parseBlockList, type UrlPolicy } from "./computer/url-policy";

/**
 * Every setting Argus reads from the environment, validated once at start.
 * The table in docs/configuration.md is written from the same names; keep the
 * two in step when adding one.
 */
/**
 * Model roles: one per agent (lib/protocol/agent-cards.ts) plus the helpers vqa and judge, each
 * read from ARGUS_MODEL_<ROLE>. An optional agent's role (the browser's) may be left out: the
 * conversation agent is then not offered `browse`, and everything else works.
 */
export { MODEL_ROLES, REQUIRED_ROLES, type ModelRole } from "@/lib/protocol/agent-cards";
const ROLES = MODEL_ROLES.map((role) => role.toUpperCase() as Uppercase<ModelRole>);

/** One variable per model role, `${prefix}${ROLE}`, each read with `schema`. */
function perRole<P extends string, S extends z.ZodType>(prefix: P, schema: S): { [R in Uppercase<ModelRole> as `${P}${R}`]: S } {
  return Object.fromEntries(ROLES.map((role) => [`${prefix}${role}`, schema])) as { [R in Uppercase<ModelRole> as `${P}${R}`]: S };
}

/**
 * `native`: OpenAI tool calls. `text`: the model writes its call as tagged text (models served
 * without tool calling). `auto`: native, switching to text for a model whose endpoint rejects
 * `tools` or that answers in tags anyway.
 */
export const TOOL_PROTOCOLS = ["native", "text", "auto"] as const;
export type ToolProtocolSetting = (typeof TOOL_PROTOCOLS)[number];
const ToolProtocolEnv = z.enum(TOOL_PROTOCOLS);

/**
 * How the browsing agent talks to its model: `chat` (Chat Completions with function tools, any
 * server), `responses` (the Responses API's computer tool, OpenAI's computer-use model), or
 * `auto`: responses when the browser model's name contains `computer-use`, else chat.
 */
export const BROWSER_APIS = ["auto", "chat", "responses"] as const;
export type BrowserApiSetting = (typeof BROWSER_APIS)[number];
export type BrowserApi = Exclude<BrowserApiSetting, "auto">;

/** ARGUS_BROWSER_API resolved for the browser model (null: none configured, which is chat). */
export function chooseBrowserApi(setting: BrowserApiSetting, modelName: string | null): BrowserApi {
  if (setting !== "auto") return setting;
  return modelName !== null && /computer-use/i.test(modelName) ? "responses" : "chat";
}

/**
 * `shared`: the kernel's workspace is a directory under ARGUS_DATA_DIR that the server reads and
 * writes (the embedded jupyter-server). `kernel`: the kernel host has its own disk, so files go
 * through the kernel channel in checksummed chunks (lib/kernels/kernel-files.ts).
 */
export const WORKSPACE_TRANSPORTS = ["shared", "kernel"] as const;
export type WorkspaceTransport = (typeof WORKSPACE_TRANSPORTS)[number];

const positiveNumber = (fallback: number) =>
  z.coerce.number().positive().default(fallback);

/** A comma-separated host list, checked by its parser so a bad entry stops the start with the parser's words. */
const hostList = (parse: (raw: string) => unknown) =>
  z
    .string()
    .max(10_000)
    .superRefine((raw, ctx) => {
      try {
        parse(raw);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: (error as Error).message });
      }
    })
    .optional();

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  ARGUS_DATA_DIR: z.string().min(1).default("data"),
  ARGUS_DB_PATH: z.string().min(1).optional(),
  // Postgres instead of the SQLite file (lib/db/database.ts); several Argus instances can share it.
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//i, "must be a postgres:// (or postgresql://) URL; leave it unset for SQLite")
    .optional(),
  ARGUS_MAX_UPLOAD_MB: positiveNumber(50),
  ARGUS_MAX_IMAGE_MEGAPIXELS: positiveNumber(100),
  ARGUS_MAX_VIDEO_SECONDS: positiveNumber(120),
  ARGUS_PYTHON: z.string().min(1).optional(),
  ARGUS_JUPYTER: z.enum(["auto", "off"]).default("auto"),
  // A Jupyter Server or Kernel/Enterprise Gateway someone else runs: see docs/kernels.md, "Kernels on a shared Jupyter".
  JUPYTER_URL: z
    .url({ protocol: /^https?$/, error: "give the http(s) address of a Jupyter Server or Kernel Gateway, like http://jupyter:8888 (a base path is allowed)" })
    .optional(),
  JUPYTER_TOKEN: z.string().max(4096).optional(),
  // How uploads reach a kernel's workspace and its files come back: the same directory (shared) or through the kernel.
  ARGUS_WORKSPACE_TRANSPORT: z.enum(WORKSPACE_TRANSPORTS, { error: 'use "shared" (the kernels see Argus\'s data directory) or "kernel" (files travel through the kernel)' }).optional(),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.url().optional(),
  ARGUS_MODEL: z.string().min(1).optional(),
  // ARGUS_MODEL_CONVERSATION, ARGUS_MODEL_PLANNER…: one per model role.
  ...perRole("ARGUS_MODEL_", z.string().min(1).optional()),
  // How each role's model is asked for its decisions: native tool calls, tagged text, or auto.
  ARGUS_TOOL_PROTOCOL: ToolProtocolEnv.default("auto"),
  ...perRole("ARGUS_TOOL_PROTOCOL_", ToolProtocolEnv.optional()),
  // Per attempt: how long the endpoint may stay silent before the attempt counts as timed out.
  ARGUS_MODEL_TIMEOUT_SECONDS: positiveNumber(120),
  ARGUS_MODEL_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  ARGUS_SECURE_COOKIES: z.enum(["0", "1"]).default("0"),
  // Sessions one client (address, and browser) may create per minute, and at once.
  ARGUS_SESSION_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(30),
  ARGUS_KERNEL_POOL: z.coerce.number().int().min(0).max(32).default(2),
  // Batch runs (issue #15): files one batch may hold, and items run at once. Each running item
  // holds one isolated kernel busy on one core, so the default matches a 2-core machine.
  ARGUS_BATCH_MAX_FILES: z.coerce.number().int().min(1).max(100_000).default(500),
  ARGUS_BATCH_PARALLEL: z.coerce.number().int().min(1).max(64).default(2),
  // Batch requests unpacking zips at once, server-wide (each may inflate up to 1 GB to disk); past it 429.
  ARGUS_BATCH_ZIP_UNPACKS: z.coerce.number().int().min(1).max(64).default(2),
  ARGUS_BATCH_ITEM_TIMEOUT_SECONDS: positiveNumber(60),
  // What a kernel imports before it is ready: "vision" (numpy, cv2, scikit-image, scipy, matplotlib)
  // costs ~2 s of CPU per kernel start, paid while it waits in the pool, not in the first cell.
  ARGUS_KERNEL_PRELOAD: z.enum(["vision", "none"]).default("vision"),
  // Quiet time after a kernel is taken or a cell ends before the pool refills (refill-schedule.ts); 0 refills at once.
  ARGUS_POOL_REFILL_QUIET_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  ARGUS_MAX_KERNELS: z.coerce.number().int().min(1).max(1000).default(24),
  ARGUS_KERNEL_IDLE_MINUTES: positiveNumber(30),
  ARGUS_CELL_TIMEOUT_SECONDS: positiveNumber(120),
  // One call of a kept session function (HTTP run endpoint, batch item): its time and what it may print.
  ARGUS_FUNCTION_TIMEOUT_SECONDS: positiveNumber(60),
  ARGUS_FUNCTION_MAX_OUTPUT_CHARS: z.coerce.number().int().min(1000).default(1_000_000),
  // Kernels kept warm between HTTP calls of a function (one per session, function and version), and
  // how long an unused one is kept: scripts calling in a loop skip a kernel start per call. 0 turns it off.
  ARGUS_FUNCTION_WARM_KERNELS: z.coerce.number().int().min(0).max(64).default(2),
  ARGUS_FUNCTION_WARM_SECONDS: positiveNumber(60),
  // The neural vision tools (issue #27): inference threads (unset: the engine's choice, 1-2 by
  // cores) and calls that may wait for one; past that a call is answered 429 at once.
  ARGUS_VISION_WORKERS: z.coerce.number().int().min(1).max(8).optional(),
  ARGUS_VISION_QUEUE: z.coerce.number().int().min(0).max(1000).default(16),
  ARGUS_PLANNER_MAX_TURNS: z.coerce.number().int().min(1).max(50).default(10),
  ARGUS_RUN_MAX_MINUTES: positiveNumber(15),
  ARGUS_RUN_MAX_TOKENS: z.coerce.number().int().min(1000).default(400_000),
  ARGUS_BRIDGE_CALLS_PER_CELL: z.coerce.number().int().min(1).max(10_000).default(50),
  // An address-space limit: numpy + cv2 + matplotlib alone map about 1 GiB.
  ARGUS_KERNEL_MEMORY_MB: z.coerce.number().int().min(2048).default(4096),
  ARGUS_KERNEL_CPU_SECONDS: z.coerce.number().int().min(1).default(3600),
  // Disk one session's workspace may hold; checked after each cell.
  ARGUS_WORKSPACE_MAX_MB: z.coerce.number().int().min(1).default(2048),
  // Free space the data directory must keep: below it new sessions, uploads and runs are refused (507).
  ARGUS_MIN_FREE_MB: z.coerce.number().int().min(0).default(200),
  // Processes and threads of one kernel together (its cgroup's pids.max); an idle kernel has ~12 threads.
  ARGUS_KERNEL_MAX_PROCESSES: z.coerce.number().int().min(32).max(100_000).default(128),
  // How far below the server kernels run (nice, and their scheduling group's nice): 0 (level) to 19.
  ARGUS_KERNEL_NICE: z.coerce.number().int().min(0).max(19).default(10),
  ARGUS_SANDBOX: z.enum(["auto", "bubblewrap", "none"]).default("auto"),
  ARGUS_KERNEL_NAME: z.string().min(1).optional(),
  // Host names (a port is ignored), comma-separated, or `*`: see lib/server/allowed-hosts.ts.
  ARGUS_ALLOWED_HOSTS: z
    .string()
    .max(4000)
    .refine((v) => v.trim() === "*" || v.split(",").every((n) => n.trim() === "" || /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+|[0-9a-fA-F:]+)(:\d{1,5})?$/.test(n.trim())), {
      message: "list host names or addresses, comma-separated (like argus.example.com,10.0.0.5), or * — no scheme, path or wildcard",
    })
    .optional(),
  // The browsing agent's Chromium (never a downloaded browser) and where it may go: see lib/computer/.
  ARGUS_CHROMIUM: z.string().min(1).default("/usr/bin/chromium"),
  ARGUS_BROWSER_BLOCK: hostList(parseBlockList),
  ARGUS_BROWSER_ALLOW: hostList(parseAllowList),
  ARGUS_BROWSER_IDLE_MINUTES: positiveNumber(10),
  ARGUS_BROWSER_MAX_DOWNLOAD_MB: positiveNumber(50),
  // Moves one browse may take before it stops and says so.
  ARGUS_BROWSER_MAX_STEPS: z.coerce.number().int().min(1).max(200).default(24),
  // Long edge of the screenshots the browsing model is shown (its coordinate space).
  ARGUS_BROWSER_SCREEN_EDGE: z.coerce.number().int().min(200).max(4096).default(1024),
  // Device pixels per CSS pixel of the browser's screen (2 renders like a HiDPI display).
  ARGUS_BROWSER_DEVICE_SCALE: z.coerce.number().min(1).max(3).default(1),
  ARGUS_BROWSER_API: z.enum(BROWSER_APIS).default("auto"),
  // Scale-out: Socket.io events and run commands travel between instances through Redis.
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/\S+$/, { message: "use redis://host:port (or rediss:// for TLS)" })
    .optional(),
  // Signs every run command between instances (HMAC): required with REDIS_URL, checked in loadConfig.
  ARGUS_CLUSTER_SECRET: z.string().min(32, { message: "use at least 32 characters (e.g. `openssl rand -hex 32`), the same on every instance" }).optional(),
  // Names this instance in run leases and logs; generated at start when unset.
  ARGUS_INSTANCE_ID: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, { message: "letters, digits, '.', '_' or '-' (at most 100)" }).optional(),
  // How long a run's lease lasts without renewal: another instance notices a dead owner within this plus a sweep (≤ 2 s).
  ARGUS_RUN_LEASE_SECONDS: z.coerce.number().min(1).max(60).default(10),
});

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
  agents: {
    /** The planner's exploring turns per run (DESIGN §4). */
    plannerMaxTurns: number;
    /** Wall-clock budget of one run. */
    runMaxMs: number;
    /** Tokens one run may spend, its model-backed tool calls included. */
    runMaxTokens: number;
  };
  /** One call of a kept session function (lib/functions). */
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
    /** ARGUS_BROWSER_BLOCK and ARGUS_BROWSER_ALLOW, parsed (lib/computer/url-policy.ts). */
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
    /** ARGUS_INSTANCE_ID, or `<host>-<random>` made at start. */
    instanceId: string;
    leaseMs: number;
  };
}

/** Where the kernel-side Python lives: explicit, then the setup script's venv, then Debian's. */
function resolvePython(explicit: string | undefined, root: string): string {
  if (explicit) return explicit;
  const venv = path.join(root, ".argus", "venv", "bin", "python");
  if (existsSync(venv)) return venv;
  return "/usr/bin/python3";
}

/** Argus's own jupyter-server starts only its sandboxed kernelspec; another name is for a server someone else runs. */
function kernelName(configured: string | undefined, mode: ArgusConfig["jupyter"]["mode"]): string {
  if (mode !== "external") {
    if (configured !== undefined && configured !== "argus-python") {
      throw new Error("Invalid configuration: ARGUS_KERNEL_NAME: Argus's own jupyter-server starts only its sandboxed argus-python kernels; set another name only with JUPYTER_URL");
    }
    return "argus-python";
  }
  return configured ?? "python3";
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
      leaseMs: Math.round(e.ARGUS_RUN_LEASE_SECONDS * 1000),
    },
  };
}

/** A model is usable when every role has a name and there is a key or a local endpoint. */
export function modelStatus(config: ArgusConfig): "configured" | "not_configured" {
  const named = REQUIRED_ROLES.every((role) => config.model.byRole[role] !== null);
  const reachable = config.model.apiKey !== null || config.model.baseUrl !== null;
  return named && reachable ? "configured" : "not_configured";
}
