import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { cpuSecondsFromStat } from "./proc-stat";

describe("cpuSecondsFromStat", () => {
  it("reads utime+stime and cutime+cstime in seconds, whatever the command name holds", () => {
    // Fields 14-17 are 250 50 1200 300 ticks; the name has spaces and a ")" of its own.
    const stat = "4242 (node (a) b) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 1200 300 20 0 11 0 99 1000 200 18446744073709551615";
    expect(cpuSecondsFromStat(stat)).toEqual({ self: 3, children: 15 });
  });

  it("reads this process's own stat: some CPU spent, none negative", () => {
    const cpu = cpuSecondsFromStat(readFileSync("/proc/self/stat", "utf8"));
    expect(cpu.self).toBeGreaterThan(0);
    expect(cpu.children).toBeGreaterThanOrEqual(0);
  });
});
