/**
 * vitest setupFile: the CPU seconds a test file cost, written when ARGUS_TEST_CPU_LOG names a file
 * (scripts/test.sh sets it; scripts/test-timings.mjs reads it into test-results/timings.md).
 *
 * On 2 cores the suite's length is its CPU work, not its waiting, so a file's wall-clock seconds
 * (which overlap other files' and stretch with the machine's load) do not say which file costs the
 * most. Integration files each run in a forked process of their own; unit files run one after
 * another in forked processes that stay (vitest.config.ts). So a file's cost is what this process
 * and the children it has waited for (/proc/self/stat: utime, stime, cutime, cstime) spent since
 * the previous file in the same process ended (or since the process started, for its first file):
 * its test code and imports, the Argus servers, jupyter-servers, kernels, Chromium and scripted
 * models it started and stopped. A process a file leaves running is not counted (nor reaped).
 * Registered before the file's own hooks, so with vitest's stacked after-hooks it runs last.
 */
import { appendFileSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, expect } from "vitest";
import { cpuSecondsFromStat } from "./proc-stat";

type Cpu = { self: number; children: number };
/** Where the previous file in this process ended; on globalThis, which outlives a file's modules. */
const mark = globalThis as { __argusCpuMark?: Cpu };
const log = process.env.ARGUS_TEST_CPU_LOG;
if (log && process.platform === "linux") {
  afterAll(() => {
    const filepath = expect.getState().testPath;
    if (!filepath) return;
    const now = cpuSecondsFromStat(readFileSync("/proc/self/stat", "utf8"));
    const before = mark.__argusCpuMark ?? { self: 0, children: 0 };
    mark.__argusCpuMark = now;
    const round = (n: number) => Math.round(n * 100) / 100;
    const line = {
      file: path.relative(process.cwd(), filepath),
      pid: process.pid,
      self: round(now.self - before.self),
      children: round(now.children - before.children),
    };
    // One short line per file, appended in one write: files ending at once never interleave.
    appendFileSync(log, `${JSON.stringify(line)}\n`);
  });
}
