/** Reading /proc/<pid>/stat (proc(5)), for tests/helpers/cpu-probe.ts. */

/** /proc's unit (sysconf CLK_TCK), 100 on Linux's every common configuration. */
const TICKS_PER_SECOND = 100;

/** Seconds of CPU in /proc/self/stat: this process's user+system and its waited-for children's. */
export function cpuSecondsFromStat(stat: string): { self: number; children: number } {
  // The command name (field 2) is in parentheses and may hold spaces: count fields after its ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // After ")" the fields start at 3 (state); utime is 14, stime 15, cutime 16, cstime 17.
  const at = (n: number) => Number(fields[n - 3]);
  return { self: (at(14) + at(15)) / TICKS_PER_SECOND, children: (at(16) + at(17)) / TICKS_PER_SECOND };
}
