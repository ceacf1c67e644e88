import { z } from "zod";
import { MODEL_ROLES, type ModelRole } from "@/lib/foundation/protocol/agent-cards";
import { trustedProxiesProblem } from "./common/trusted-proxies";
import { parseAllowList, parseBlockList } from "./net/url-policy";

/**
 * Every setting Argus reads from the environment and the zod schema that checks them once at
 * start; lib/foundation/config.ts turns the parsed values into ArgusConfig. The table in
 * docs/configuration.md is written from the same names; keep the two in step when adding one.
 */
/**
 * Model roles: one per agent (lib/foundation/protocol/agent-cards.ts) plus the helpers vqa and judge, each
 * read from ARGUS_MODEL_<ROLE>. An optional agent's role (the browser's) may be left out: the
 * conversation agent is then not offered `browse`, and everything else works.
 */
export { MODEL_ROLES, REQUIRED_ROLES, type ModelRole } from "@/lib/foundation/protocol/agent-cards";
export const ROLES = MODEL_ROLES.map((role) => role.toUpperCase() as Uppercase<ModelRole>);

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

/**
 * `shared`: the kernel's workspace is a directory under ARGUS_DATA_DIR that the server reads and
 * writes (the embedded jupyter-server). `kernel`: the kernel host has its own disk, so files go
 * through the kernel channel in checksummed chunks (lib/engines/kernels/kernel-files.ts).
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

export const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  ARGUS_DATA_DIR: z.string().min(1).default("data"),
  ARGUS_DB_PATH: z.string().min(1).optional(),
  // Postgres instead of the SQLite file (lib/engines/db/database.ts); several Argus instances can share it.
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
  // Three: a run on an idle server takes one for the planner's notebook and one per coder test
  // (a fresh kernel each), while refills wait for the run's cells (refill-schedule.ts); with two,
  // the coder's second test finds the pool empty unless a refill has finished meanwhile, and a cold
  // start took 30–60 s beside other suites (#29).
  ARGUS_KERNEL_POOL: z.coerce.number().int().min(0).max(32).default(3),
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
  // At the cap, a session kernel idle this long gives its place to a new chat's (idle-sessions.ts).
  ARGUS_KERNEL_YIELD_IDLE_SECONDS: positiveNumber(120),
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
  // Load balancers whose X-Forwarded-For names the client (addresses or CIDR ranges, comma-separated):
  // the session-creation rate limit then counts each person behind them apart. Empty (the default):
  // the header is never read, since any client can write it. See lib/foundation/common/trusted-proxies.ts.
  ARGUS_TRUSTED_PROXIES: z
    .string()
    .max(4000)
    .superRefine((v, ctx) => {
      const problem = trustedProxiesProblem(v);
      if (problem) ctx.addIssue({ code: "custom", message: `${problem}; list addresses or ranges like 10.0.0.5,172.28.0.0/16` });
    })
    .default(""),
  // The browsing agent's Chromium (never a downloaded browser) and where it may go: see lib/engines/computer/.
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
  // It names files and directories (the kernel ledger, the jupyter-server's own files): "." and ".." would name others.
  ARGUS_INSTANCE_ID: z.string().regex(/^(?!\.{1,2}$)[A-Za-z0-9._-]{1,100}$/, { message: "letters, digits, '.', '_' or '-' (at most 100), and not '.' or '..'" }).optional(),
  // How long a run's lease lasts without renewal: another instance notices a dead owner within this plus a sweep (≤ 2 s).
  ARGUS_RUN_LEASE_SECONDS: z.coerce.number().min(1).max(60).default(10),
  // A run whose owner died, stalled or restarted goes on from the log on the instance that takes its lease ("on"), or ends interrupted ("off").
  ARGUS_RESUME_RUNS: z.enum(["on", "off"]).default("on"),
});
