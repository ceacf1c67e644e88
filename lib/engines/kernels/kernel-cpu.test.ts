import { describe, expect, it } from "vitest";
import { cpuStatSeconds, kernelGroupDirs, ownCgroups, procStatSeconds } from "./kernel-cpu";

describe("ownCgroups", () => {
  it("reads v1 controllers and the v2 path", () => {
    const own = ownCgroups("9:name=systemd:/\n8:pids:/\n4:memory:/process_api/abc\n2:cpu,cpuacct:/x\n0::/user.slice\n");
    expect(own.get("pids")).toBe("/");
    expect(own.get("memory")).toBe("/process_api/abc");
    expect(own.get("cpuacct")).toBe("/x");
    expect(own.get("")).toBe("/user.slice");
  });
});

describe("kernelGroupDirs", () => {
  it("places the kernel's group below this process's own, in each hierarchy, never outside the root", () => {
    const dirs = kernelGroupDirs(new Map([["", "/a.slice"], ["pids", "/"], ["memory", "/../../etc"]]), "k1/../x", "/cg");
    expect(dirs.v2).toEqual(["/cg/a.slice/argus-kernels/kernel-k1_.._x", "/cg/unified/a.slice/argus-kernels/kernel-k1_.._x"]);
    expect(dirs.v1).toEqual(["/cg/pids/argus-kernels/kernel-k1_.._x", "/cg/memory/etc/argus-kernels/kernel-k1_.._x"]);
  });
});

describe("cpu times", () => {
  it("reads usage_usec of a v2 cpu.stat", () => {
    expect(cpuStatSeconds("usage_usec 2500000\nuser_usec 2000000\nsystem_usec 500000\n")).toBe(2.5);
    expect(cpuStatSeconds("nr_periods 0\n")).toBeNull();
  });

  it("adds a process's own and its children's times, whatever its command name holds", () => {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime …
    const line = "42 (a) b (c)) S 1 42 42 0 -1 4194560 100 0 0 0 150 50 30 20 20 0 3 0 100 1000 10";
    expect(procStatSeconds(line)).toBe(2.5);
    expect(procStatSeconds("42 (short) S 1")).toBeNull();
  });
});
