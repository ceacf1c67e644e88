/**
 * Process figures from /proc (Linux only), for the load and soak benchmark:
 * the resident memory of one pid, and how many Jupyter and kernel processes
 * belong to one Argus server (its descendants, or anything naming its data
 * directory). The parsing is pure and unit-tested; the readers are thin.
 */
import { readdirSync, readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

/** Memory lines of `/proc/<pid>/status`, in kB (the unit the kernel prints). */
export interface StatusMemory {
  vmRssKb: number;
  /** Anonymous resident memory (heap, stacks): what a leak grows. */
  rssAnonKb: number | null;
  vmHwmKb: number | null;
}

function kbField(status: string, name: string): number | null {
  const m = new RegExp(`^${name}:\\s*(\\d+)\\s*kB\\s*$`, "m").exec(status);
  return m ? Number(m[1]) : null;
}

/** VmRSS in kB from the text of `/proc/<pid>/status`; null when absent (e.g. a zombie). */
export function parseVmRssKb(status: string): number | null {
  return kbField(status, "VmRSS");
}

export function parseStatusMemory(status: string): StatusMemory | null {
  const vmRssKb = parseVmRssKb(status);
  if (vmRssKb === null) return null;
  return { vmRssKb, rssAnonKb: kbField(status, "RssAnon"), vmHwmKb: kbField(status, "VmHWM") };
}

/** pid and parent pid from `/proc/<pid>/stat`. The command name may hold spaces and parentheses. */
export function parseStat(stat: string): { pid: number; comm: string; state: string; ppid: number } | null {
  const open = stat.indexOf("(");
  const close = stat.lastIndexOf(")");
  if (open < 0 || close < open) return null;
  const pid = Number(stat.slice(0, open).trim());
  const rest = stat.slice(close + 1).trim().split(/\s+/);
  const ppid = Number(rest[1]);
  if (!Number.isInteger(pid) || !Number.isInteger(ppid) || rest[0] === undefined) return null;
  return { pid, comm: stat.slice(open + 1, close), state: rest[0], ppid };
}

/** `/proc/<pid>/cmdline` is NUL-separated with a trailing NUL. */
export function parseCmdline(raw: string): string[] {
  return raw.split("\0").filter((s, i, all) => !(s === "" && i === all.length - 1));
}

export type ProcKind = "kernel" | "jupyter" | "sandbox" | "other";

/**
 * What an Argus-related process is. A sandboxed kernel shows up as two
 * bubblewrap processes and one python running `ipykernel_launcher` (or Argus's
 * launcher code for it); only the
 * python is counted as the kernel.
 */
export function classify(argv: readonly string[]): ProcKind {
  const exe = path.basename(argv[0] ?? "");
  if (exe === "bwrap") return "sandbox";
  if (argv.includes("ipykernel_launcher") || argv.some((a) => a.endsWith("ipykernel_launcher.py"))) return "kernel";
  // Argus's own kernels: `python3 -c "# Argus kernel: ipykernel_launcher without the debugger…"`
  // (KERNEL_MAIN in python/argus_sandbox/launch_kernel.py).
  if (argv[1] === "-c" && (argv[2] ?? "").startsWith("# Argus kernel: ipykernel_launcher")) return "kernel";
  if (argv.includes("jupyter_server") || argv.some((a) => /jupyter-server$|jupyter_server\/?$/.test(a))) return "jupyter";
  return "other";
}

export interface ProcInfo {
  pid: number;
  ppid: number;
  state: string;
  argv: string[];
}

export interface ProcCounts {
  kernels: number;
  jupyter: number;
  sandbox: number;
  /** Summed VmRSS of the kernel processes, kB. */
  kernelRssKb: number;
}

/**
 * The processes that belong to a server: descendants of `rootPid`, plus any
 * process (and its descendants) whose command line names `dataDir`, so that
 * Jupyter processes orphaned by a dead server are still counted. Zombies are
 * left out: they hold no memory and are gone once reaped.
 */
export function selectOwned(procs: readonly ProcInfo[], rootPid: number | null, dataDir: string | null): ProcInfo[] {
  const children = new Map<number, ProcInfo[]>();
  for (const p of procs) {
    const list = children.get(p.ppid);
    if (list) list.push(p);
    else children.set(p.ppid, [p]);
  }
  const owned = new Map<number, ProcInfo>();
  const stack: ProcInfo[] = [];
  const seed = (p: ProcInfo) => {
    if (!owned.has(p.pid)) {
      owned.set(p.pid, p);
      stack.push(p);
    }
  };
  if (rootPid !== null) for (const c of children.get(rootPid) ?? []) seed(c);
  if (dataDir) for (const p of procs) if (p.argv.some((a) => a.includes(dataDir))) seed(p);
  while (stack.length) for (const c of children.get(stack.pop()!.pid) ?? []) seed(c);
  return [...owned.values()].filter((p) => p.state !== "Z");
}

/**
 * Counts by kind. A process whose parent has the same kind is not counted:
 * between fork and exec, a child of jupyter-server (a kernel being launched)
 * still shows jupyter-server's command line.
 */
export function countKinds(owned: readonly ProcInfo[], rssKbOf: (pid: number) => number | null = () => null): ProcCounts {
  const counts: ProcCounts = { kernels: 0, jupyter: 0, sandbox: 0, kernelRssKb: 0 };
  const kindOf = new Map(owned.map((p) => [p.pid, classify(p.argv)]));
  for (const p of owned) {
    const kind = kindOf.get(p.pid)!;
    if (kind !== "sandbox" && kindOf.get(p.ppid) === kind) continue;
    if (kind === "kernel") {
      counts.kernels++;
      counts.kernelRssKb += rssKbOf(p.pid) ?? 0;
    } else if (kind === "jupyter") counts.jupyter++;
    else if (kind === "sandbox") counts.sandbox++;
  }
  return counts;
}

/**
 * Least-squares slope of y over x (units of y per unit of x); NaN with fewer
 * than two distinct x.
 */
export function slope(points: readonly (readonly [x: number, y: number])[]): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  let sx = 0;
  let sy = 0;
  for (const [x, y] of points) {
    sx += x;
    sy += y;
  }
  const mx = sx / n;
  const my = sy / n;
  let sxy = 0;
  let sxx = 0;
  for (const [x, y] of points) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) * (x - mx);
  }
  return sxx === 0 ? Number.NaN : sxy / sxx;
}

// ---- readers ----

function readText(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null; // the process exited meanwhile
  }
}

/** VmRSS of a live process in kB, or null when it is gone. */
function rssKb(pid: number): number | null {
  const status = readText(`/proc/${pid}/status`);
  return status === null ? null : parseVmRssKb(status);
}

export function statusMemory(pid: number): StatusMemory | null {
  const status = readText(`/proc/${pid}/status`);
  return status === null ? null : parseStatusMemory(status);
}

/** Every process visible in /proc. */
export function listProcesses(): ProcInfo[] {
  const out: ProcInfo[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readText(`/proc/${name}/stat`);
    const cmdline = readText(`/proc/${name}/cmdline`);
    if (stat === null || cmdline === null) continue;
    const parsed = parseStat(stat);
    if (!parsed) continue;
    out.push({ pid: parsed.pid, ppid: parsed.ppid, state: parsed.state, argv: parseCmdline(cmdline) });
  }
  return out;
}

async function readTextAsync(file: string): Promise<string | null> {
  try {
    return await readFile(file, "utf8");
  } catch {
    return null;
  }
}

/**
 * listProcesses without blocking the event loop (the reads go to libuv's
 * thread pool), for a sampler running beside latency measurements.
 */
async function listProcessesAsync(): Promise<ProcInfo[]> {
  const names = (await readdir("/proc")).filter((n) => /^\d+$/.test(n));
  const all = await Promise.all(
    names.map(async (name): Promise<ProcInfo | null> => {
      const [stat, cmdline] = await Promise.all([readTextAsync(`/proc/${name}/stat`), readTextAsync(`/proc/${name}/cmdline`)]);
      const parsed = stat === null || cmdline === null ? null : parseStat(stat);
      return parsed ? { pid: parsed.pid, ppid: parsed.ppid, state: parsed.state, argv: parseCmdline(cmdline!) } : null;
    }),
  );
  return all.filter((p): p is ProcInfo => p !== null);
}

export async function serverProcessesAsync(rootPid: number | null, dataDir: string | null): Promise<ProcCounts> {
  const owned = selectOwned(await listProcessesAsync(), rootPid, dataDir);
  const rss = new Map<number, number | null>();
  await Promise.all(
    owned
      .filter((p) => classify(p.argv) === "kernel")
      .map(async (p) => {
        const status = await readTextAsync(`/proc/${p.pid}/status`);
        rss.set(p.pid, status === null ? null : parseVmRssKb(status));
      }),
  );
  return countKinds(owned, (pid) => rss.get(pid) ?? null);
}
