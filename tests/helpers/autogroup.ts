import { readFileSync } from "node:fs";

/**
 * Whether the Linux scheduler groups processes by session (sched_autogroup): then a kernel's
 * priority below the server is its scheduling group's nice, not only its own.
 */
export function autogroupOn(): boolean {
  try {
    return readFileSync("/proc/sys/kernel/sched_autogroup_enabled", "utf8").trim() === "1";
  } catch {
    return false;
  }
}
