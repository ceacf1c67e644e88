import { spawn } from "node:child_process";
import { accessSync, constants, lstatSync, readlinkSync } from "node:fs";
import path from "node:path";

export interface Isolation {
  kind: "bubblewrap" | "none";
  /** One sentence for the startup warning and `/api/health`. */
  reason: string;
}

export interface DetectOptions {
  /** Directories to look for `bwrap` in, PATH-style; defaults to process.env.PATH. */
  searchPath?: string;
  /** How long the smoke run may take before bubblewrap is declared unusable. */
  timeoutMs?: number;
}

const SMOKE_TIMEOUT_MS = 5000;
const SYSTEM_DIRS = ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];

export function findOnPath(program: string, searchPath: string): string | null {
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/**
 * /bin, /lib... as the kernel launcher sets them up: on merged-/usr systems they
 * are symlinks into /usr and are recreated as such, otherwise bound read-only.
 */
export function systemDirArgs(): string[] {
  const args: string[] = [];
  for (const dir of SYSTEM_DIRS) {
    try {
      const stat = lstatSync(dir);
      if (stat.isSymbolicLink()) args.push("--symlink", readlinkSync(dir), dir);
      else if (stat.isDirectory()) args.push("--ro-bind", dir, dir);
    } catch {
      // absent on this system
    }
  }
  return args;
}

/** The namespaces and mounts the kernel launcher asks for, around `/usr/bin/true`. */
export function smokeArgs(): string[] {
  return [
    "--unshare-all",
    "--die-with-parent",
    "--cap-drop",
    "ALL",
    "--hostname",
    "argus-kernel",
    "--ro-bind",
    "/usr",
    "/usr",
    ...systemDirArgs(),
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    "--tmpfs",
    "/tmp",
    "--clearenv",
    "--",
    "/usr/bin/true",
  ];
}

interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  timedOut: boolean;
  spawnError?: string;
}

function run(program: string, args: string[], timeoutMs: number): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(program, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    let timedOut = false;
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 2000) stderr += chunk.toString();
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      resolve({ code: null, signal: null, stderr, timedOut, spawnError: error.message });
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr, timedOut });
    });
  });
}

function firstLine(text: string): string {
  return text.trim().split("\n")[0]?.trim() ?? "";
}

/**
 * Can kernels be sandboxed with bubblewrap here? Finding the binary is not
 * enough: containers and hardened hosts often forbid the namespaces it needs,
 * so this runs it once with the launcher's own namespace and mount options.
 */
export async function detectIsolation(options: DetectOptions = {}): Promise<Isolation> {
  const searchPath = options.searchPath ?? process.env.PATH ?? "/usr/bin:/bin";
  const bwrap = findOnPath("bwrap", searchPath);
  if (!bwrap) {
    return { kind: "none", reason: "bubblewrap (bwrap) is not installed, so kernels run unsandboxed" };
  }
  const timeoutMs = options.timeoutMs ?? SMOKE_TIMEOUT_MS;
  const result = await run(bwrap, smokeArgs(), timeoutMs);
  if (result.spawnError) {
    return { kind: "none", reason: `${bwrap} could not be started (${result.spawnError}), so kernels run unsandboxed` };
  }
  if (result.timedOut) {
    return { kind: "none", reason: `${bwrap} did not finish a test run within ${timeoutMs} ms, so kernels run unsandboxed` };
  }
  if (result.code !== 0) {
    const how = result.signal ? `was killed by ${result.signal}` : `exited with code ${result.code}`;
    const detail = firstLine(result.stderr);
    return {
      kind: "none",
      reason: `${bwrap} cannot create a sandbox here (test run ${how}${detail ? `: ${detail}` : ""}), so kernels run unsandboxed`,
    };
  }
  return { kind: "bubblewrap", reason: `kernels run in bubblewrap (${bwrap}): no network, read-only system, only their workspace writable` };
}
