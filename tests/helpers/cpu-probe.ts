/**
 * vitest setupFile: the CPU seconds a test file cost, written when ARGUS_TEST_CPU_LOG names a file
 * (scripts/test.sh sets it; scripts/test-timings.mjs reads it into test-results/timings.md).
 *
 * On 2 cores the suite's length is its CPU work, not its waiting, so a file's wall-clock seconds
 * (which overlap other files' and stretch with the machine's load) do not say which file costs the
 * most. With `pool: "forks"` every file runs in a process of its own, so this process's own CPU
 * plus that of the children it has waited for (/proc/self/stat: utime, stime, cutime, cstime) is
 * the file's: its test code, the Argus servers, jupyter-servers, kernels, Chromium and scripted
 * models it started and stopped. A process a file leaves running is not counted (nor reaped).
 * Registered before the file's own hooks, so with vitest's stacked after-hooks it runs last.
 */
import { appendFileSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, expect } from "vitest";
import { cpuSecondsFromStat } from "./proc-stat";

const log = process.env.ARGUS_TEST_CPU_LOG;
if (log && process.platform === "linux") {
  afterAll(() => {
    const filepath = expect.getState().testPath;
    if (!filepath) return;
    const cpu = cpuSecondsFromStat(readFileSync("/proc/self/stat", "utf8"));
    const line = { file: path.relative(process.cwd(), filepath), pid: process.pid, ...cpu };
    // One short line per file, appended in one write: files ending at once never interleave.
    appendFileSync(log, `${JSON.stringify(line)}\n`);
  });
}
