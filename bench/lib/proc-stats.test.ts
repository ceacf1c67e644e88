import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  classify,
  countKinds,
  parseCmdline,
  parseStat,
  parseStatusMemory,
  parseVmRssKb,
  selectOwned,
  slope,
  type ProcInfo,
} from "./proc-stats";

const STATUS = `Name:\tnode
Umask:\t0022
State:\tS (sleeping)
Tgid:\t11647
Pid:\t11647
PPid:\t11582
VmPeak:\t 1234567 kB
VmSize:\t 1200000 kB
VmHWM:\t  215000 kB
VmRSS:\t  208300 kB
RssAnon:\t  150100 kB
RssFile:\t   58000 kB
RssShmem:\t     200 kB
Threads:\t12
`;

describe("proc-stats parsing", () => {
  it("reads VmRSS and the other memory lines in kB", () => {
    expect(parseVmRssKb(STATUS)).toBe(208300);
    expect(parseStatusMemory(STATUS)).toEqual({ vmRssKb: 208300, rssAnonKb: 150100, vmHwmKb: 215000 });
  });

  it("gives null when VmRSS is missing (a zombie or kernel thread)", () => {
    const zombie = "Name:\tpython3\nState:\tZ (zombie)\nPid:\t42\nThreads:\t1\n";
    expect(parseVmRssKb(zombie)).toBeNull();
    expect(parseStatusMemory(zombie)).toBeNull();
  });

  it("does not mistake VmRSS-like names in other fields", () => {
    expect(parseVmRssKb("Name:\tVmRSS: 5 kB\nVmRSS:\t 7 kB\n")).toBe(7);
  });

  it("parses /proc/<pid>/stat with spaces and parentheses in the command name", () => {
    expect(parseStat("123 (node) S 100 123 123 0 -1 4194560 10")).toEqual({ pid: 123, comm: "node", state: "S", ppid: 100 });
    expect(parseStat("77 (a (b) c) Z 1 77 77 0")).toEqual({ pid: 77, comm: "a (b) c", state: "Z", ppid: 1 });
    expect(parseStat("garbage")).toBeNull();
  });

  it("splits a NUL-separated command line", () => {
    expect(parseCmdline("python3\0-m\0ipykernel_launcher\0-f\0/run/k.json\0")).toEqual(["python3", "-m", "ipykernel_launcher", "-f", "/run/k.json"]);
    expect(parseCmdline("")).toEqual([]);
  });

  it("classifies kernels, their sandbox and jupyter-server", () => {
    expect(classify(["/usr/bin/python3", "-m", "ipykernel_launcher", "-f", "/run/jupyter/kernel-1.json"])).toBe("kernel");
    // What python/argus_sandbox/launch_kernel.py starts (KERNEL_MAIN), read from the launcher itself.
    const launcher = readFileSync(path.resolve(import.meta.dirname, "../../python/argus_sandbox/launch_kernel.py"), "utf8");
    const firstLine = /KERNEL_MAIN = \(\n\s+"([^"\\]+)\\n"/.exec(launcher)?.[1];
    expect(firstLine).toMatch(/^# Argus kernel/);
    expect(classify(["/usr/bin/python3", "-c", `${firstLine}\nimport sys\n`, "-f", "/run/jupyter/kernel-1.json"])).toBe("kernel");
    expect(classify(["/usr/bin/python3", "-c", "print(1)"])).toBe("other");
    expect(classify(["/usr/bin/bwrap", "--unshare-all", "--", "/usr/bin/python3", "-m", "ipykernel_launcher"])).toBe("sandbox");
    expect(classify(["/usr/bin/python3", "-m", "jupyter_server", "--no-browser"])).toBe("jupyter");
    expect(classify(["/usr/bin/node", "--import", "tsx", "server.ts"])).toBe("other");
  });
});

describe("proc-stats ownership", () => {
  const p = (pid: number, ppid: number, argv: string[], state = "S"): ProcInfo => ({ pid, ppid, state, argv });
  const procs = [
    p(1, 0, ["/sbin/init"]),
    p(10, 1, ["node", "server.ts"]),
    p(11, 10, ["python3", "-m", "jupyter_server", "--ServerApp.root_dir=/tmp/d1/sessions"]),
    p(12, 11, ["/usr/bin/bwrap", "--unshare-all"]),
    p(13, 12, ["/usr/bin/bwrap", "--unshare-all"]),
    p(14, 13, ["python3", "-m", "ipykernel_launcher", "-f", "/run/jupyter/k.json"]),
    p(15, 11, ["python3", "-m", "ipykernel_launcher"], "Z"),
    // Another server's kernel: not ours.
    p(20, 1, ["python3", "-m", "jupyter_server", "--ServerApp.root_dir=/tmp/other/sessions"]),
    p(21, 20, ["python3", "-m", "ipykernel_launcher"]),
    // An orphaned jupyter-server of our data dir (its server died).
    p(30, 1, ["python3", "-m", "jupyter_server", "--ServerApp.root_dir=/tmp/d1/sessions"]),
    p(31, 30, ["python3", "-m", "ipykernel_launcher"]),
  ];

  it("counts the server's descendants and anything naming its data dir, without zombies", () => {
    const owned = selectOwned(procs, 10, "/tmp/d1");
    expect(owned.map((o) => o.pid).sort((a, b) => a - b)).toEqual([11, 12, 13, 14, 30, 31]);
    expect(countKinds(owned, (pid) => (pid === 14 ? 1000 : 500))).toEqual({ kernels: 2, jupyter: 2, sandbox: 2, kernelRssKb: 1500 });
  });

  it("does not count a forked child that has not exec'd yet", () => {
    const forking = [...procs, p(16, 11, ["python3", "-m", "jupyter_server", "--ServerApp.root_dir=/tmp/d1/sessions"])];
    expect(countKinds(selectOwned(forking, 10, null))).toMatchObject({ kernels: 1, jupyter: 1 });
  });

  it("works from the root pid alone", () => {
    expect(countKinds(selectOwned(procs, 10, null))).toMatchObject({ kernels: 1, jupyter: 1 });
  });
});

describe("least-squares slope", () => {
  it("recovers an exact line", () => {
    const pts = Array.from({ length: 50 }, (_, i) => [i, 3 + 0.5 * i] as const);
    expect(slope(pts)).toBeCloseTo(0.5, 10);
  });

  it("is zero for a flat series and small for noise around a flat line", () => {
    expect(slope([[0, 5], [1, 5], [2, 5]])).toBe(0);
    // Hand-computed: sxy = 2, sxx = 10.
    expect(slope([[0, 1], [1, 3], [2, 1], [3, 3], [4, 2]])).toBeCloseTo(0.2, 10);
  });

  it("is NaN without two distinct x", () => {
    expect(slope([])).toBeNaN();
    expect(slope([[1, 2]])).toBeNaN();
    expect(slope([[1, 2], [1, 4]])).toBeNaN();
  });

  it("fits unevenly spaced points", () => {
    expect(slope([[0, -1], [1, 1], [3, 5], [10, 19]])).toBeCloseTo(2, 10); // y = 2x - 1
    // Residuals (+1, -1, -1, +1) at x = 0, 1, 2, 3 are orthogonal to x - mean: same slope.
    expect(slope([[0, 1], [1, 1], [2, 3], [3, 7]])).toBeCloseTo(2, 10);
  });
});
