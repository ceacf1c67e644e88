import { execFile } from "node:child_process";

/**
 * How a kernel's memory and process count are held: its own cgroup (the
 * whole kernel, children included) or only per-process rlimits. The kernel
 * launcher decides at every start (python/argus_sandbox/cgroups.py); the
 * server asks the same code once at start for `/api/health`.
 */
import type { KernelLimitsKind } from "@/lib/foundation/protocol/health";

export type { KernelLimitsKind };

export interface KernelLimits {
  kind: KernelLimitsKind;
  /** Why there is no cgroup, when there is none. */
  reason: string;
}

const KINDS: readonly string[] = ["cgroup-v2", "cgroup-v1", "rlimit"];

/** Pure: the probe's output (kind on the first line, the reason after). */
export function parseProbe(stdout: string): KernelLimits {
  const [first = "", ...rest] = stdout.trim().split("\n");
  const kind = first.trim();
  if (!KINDS.includes(kind)) return { kind: "rlimit", reason: "the cgroup probe gave no answer" };
  return { kind: kind as KernelLimitsKind, reason: rest.join(" ").trim() };
}

/** Runs `python -m argus_sandbox.cgroups --probe`, which also removes groups left by kernels that are gone. */
export function detectKernelLimits(python: string, pythonDir: string, timeoutMs = 10_000): Promise<KernelLimits> {
  return new Promise((resolve) => {
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" } as unknown as NodeJS.ProcessEnv;
    execFile(python, ["-m", "argus_sandbox.cgroups", "--probe"], { cwd: pythonDir, timeout: timeoutMs, env }, (error, stdout) => {
      if (error) resolve({ kind: "rlimit", reason: `the cgroup probe failed: ${error.message.split("\n")[0]}` });
      else resolve(parseProbe(String(stdout)));
    });
  });
}
