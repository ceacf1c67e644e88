import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

/** The kernelspec Argus starts every kernel with (`POST /api/kernels {"name": ...}`). */
export const ARGUS_KERNEL_NAME = "argus-python";

type SandboxKind = "bubblewrap" | "none";

export interface KernelspecOptions {
  /** jupyter-server's JUPYTER_DATA_DIR; the spec goes in `kernels/argus-python/`. */
  jupyterDataDir: string;
  /** Python that runs the launcher and the kernel (has ipykernel). */
  python: string;
  /** Absolute path of `python/argus_sandbox/launch_kernel.py`. */
  launcherPath: string;
  /** Directory holding the kernel-side `argus` package; importable in every kernel. */
  packageDir: string;
  memoryMb: number;
  cpuSeconds: number;
  /** Processes and threads of one kernel together (its cgroup's pids.max). */
  maxProcesses: number;
  /** How far below the server the kernel runs, 0–19 (the launcher's default, 10, when absent). */
  niceness?: number;
  sandbox: SandboxKind;
  /** What each kernel imports before it reports ready (python/argus/preload.py); default none. */
  preload?: KernelPreload;
}

export type KernelPreload = "vision" | "none";

/** The on-disk shape jupyter_client reads (`kernel.json`). */
export interface KernelspecJson {
  argv: string[];
  display_name: string;
  language: "python";
  interrupt_mode: "signal" | "message";
  env: Record<string, string>;
  metadata: { argus: { sandbox: SandboxKind } };
}

function positiveInteger(name: string, value: number): string {
  if (!Number.isInteger(value) || value <= 0) {
    throw new Error(`kernelspec: ${name} must be a positive whole number, got ${value}`);
  }
  return String(value);
}

function niceness(value: number): string {
  if (!Number.isInteger(value) || value < 0 || value > 19) {
    throw new Error(`kernelspec: niceness must be a whole number from 0 to 19, got ${value}`);
  }
  return String(value);
}

function absolute(name: string, value: string): string {
  if (!path.isAbsolute(value)) {
    // jupyter-server starts kernels in each session's workspace, so a relative
    // path would resolve differently for every kernel.
    throw new Error(`kernelspec: ${name} must be an absolute path, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** Pure: the kernel.json content for these options. */
export function kernelspecJson(options: KernelspecOptions): KernelspecJson {
  return {
    argv: [absolute("python", options.python), absolute("launcherPath", options.launcherPath), "{connection_file}"],
    display_name: "Argus Python (sandboxed)",
    language: "python",
    // jupyter_client interrupts with SIGINT to the kernel's process group. The
    // launcher makes bubblewrap ignore SIGINT (bwrap would otherwise die of it
    // and take the kernel along) and does not start a new session, so the
    // signal reaches the kernel, and any program a cell started, through the
    // sandbox. Tested in python/tests/test_sandbox.py. "message" also works but
    // needs the kernel's control thread to get the GIL and misses child processes.
    interrupt_mode: "signal",
    env: {
      ARGUS_KERNEL_MEMORY_MB: positiveInteger("memoryMb", options.memoryMb),
      ARGUS_KERNEL_CPU_SECONDS: positiveInteger("cpuSeconds", options.cpuSeconds),
      ARGUS_KERNEL_MAX_PROCESSES: positiveInteger("maxProcesses", options.maxProcesses),
      ARGUS_SANDBOX: options.sandbox,
      ARGUS_KERNEL_PRELOAD: options.preload ?? "none",
      ARGUS_PYTHON_PACKAGE_DIR: absolute("packageDir", options.packageDir),
      ...(options.niceness === undefined ? {} : { ARGUS_KERNEL_NICE: niceness(options.niceness) }),
    },
    metadata: { argus: { sandbox: options.sandbox } },
  };
}

/**
 * Write `<jupyterDataDir>/kernels/argus-python/kernel.json` and return the
 * kernelspec name. Written to a temporary file and renamed, so a jupyter-server
 * listing kernelspecs never reads half a file.
 */
export function writeKernelspec(options: KernelspecOptions): string {
  const dir = path.join(options.jupyterDataDir, "kernels", ARGUS_KERNEL_NAME);
  const json = `${JSON.stringify(kernelspecJson(options), null, 2)}\n`;
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "kernel.json");
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, json, { mode: 0o644 });
  renameSync(tmp, file);
  return ARGUS_KERNEL_NAME;
}
