import { readFile } from "node:fs/promises";
import path from "node:path";

/**
 * CPU time a kernel has used, read from the host (its cgroup and /proc), never from the kernel:
 * code in the kernel can patch anything in its own process, so only the host can tell whether it
 * is still working when no cell runs. A kernel's group is `argus-kernels/kernel-<id>` below the
 * launcher's own cgroup (python/argus_sandbox/cgroups.py); the launcher is started by Argus's own
 * jupyter-server, so its cgroup is this process's. Null where there is no such group (no cgroup
 * per kernel on this machine, or a shared Jupyter elsewhere): then nothing can be told.
 */

const CGROUP_ROOT = "/sys/fs/cgroup";
/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ: 100 on every Linux Argus runs on). */
const TICKS_PER_SECOND = 100;

/** Hierarchy key ("" for v2, else each controller name) → path, from /proc/self/cgroup text. */
export function ownCgroups(procCgroup: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const line of procCgroup.split("\n")) {
    const parts = line.split(":");
    if (parts.length < 3) continue;
    const controllers = parts[1]!;
    const where = parts.slice(2).join(":");
    if (controllers === "") found.set("", where);
    for (const c of controllers.split(",")) if (c) found.set(c, where);
  }
  return found;
}

/** Where kernel `kernelId`'s group may be, the v2 places first (their cpu.stat counts every task that ever ran there). */
export function kernelGroupDirs(own: Map<string, string>, kernelId: string, root = CGROUP_ROOT): { v2: string[]; v1: string[] } {
  const name = `kernel-${kernelId.replace(/[^A-Za-z0-9._-]/g, "_")}`;
  const below = (mount: string, at: string | undefined) => (at === undefined ? [] : [path.join(mount, path.normalize(`/${at}`), "argus-kernels", name)]);
  return {
    v2: [...below(root, own.get("")), ...below(path.join(root, "unified"), own.get(""))],
    v1: [...below(path.join(root, "pids"), own.get("pids")), ...below(path.join(root, "memory"), own.get("memory"))],
  };
}

/** Seconds of CPU in a cgroup v2 cpu.stat text (usage_usec), or null. */
export function cpuStatSeconds(text: string): number | null {
  const match = /^usage_usec (\d+)$/m.exec(text);
  return match ? Number(match[1]) / 1e6 : null;
}

/** Seconds of CPU in a /proc/<pid>/stat line: the process's own (all its threads, live or ended) and its reaped children's. */
export function procStatSeconds(text: string): number | null {
  // The command name is in parentheses and may hold spaces or parentheses itself: count after the last one.
  const fields = text.slice(text.lastIndexOf(")") + 2).trim().split(/\s+/);
  // Fields 14–17 of proc(5) (utime, stime, cutime, cstime) are 11–14 here, from field 3 (state) on.
  const ticks = fields.slice(11, 15).map(Number);
  if (ticks.length < 4 || ticks.some((t) => !Number.isFinite(t))) return null;
  return ticks.reduce((a, b) => a + b, 0) / TICKS_PER_SECOND;
}

/** CPU seconds used so far by kernel `kernelId` and every process it started, or null when the host cannot tell. */
export async function kernelCpuSeconds(kernelId: string): Promise<number | null> {
  let own: Map<string, string>;
  try {
    own = ownCgroups(await readFile("/proc/self/cgroup", "utf8"));
  } catch {
    return null;
  }
  const dirs = kernelGroupDirs(own, kernelId);
  for (const dir of dirs.v2) {
    const text = await readFile(path.join(dir, "cpu.stat"), "utf8").catch(() => null);
    const seconds = text === null ? null : cpuStatSeconds(text);
    if (seconds !== null) return seconds;
  }
  for (const dir of dirs.v1) {
    const procs = await readFile(path.join(dir, "cgroup.procs"), "utf8").catch(() => null);
    if (procs === null) continue;
    let total = 0;
    for (const pid of procs.split("\n").filter((p) => /^\d+$/.test(p))) {
      const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => null); // gone since the listing
      total += stat === null ? 0 : (procStatSeconds(stat) ?? 0);
    }
    return total;
  }
  return null;
}
