import type { Execution } from "@/lib/foundation/protocol/contexts";
import type { WorkspaceUsage } from "@/lib/engines/files/workspace-tree";

/**
 * A workspace is a directory on the data disk, and a cell can fill it (6 GB
 * fallocated in one cell). After each cell the server measures it; past the
 * quota the cell ends with an error that says what to do, so the agent (or
 * the person reading the notebook) deletes files. Later cells still run, or
 * nothing could delete them; each one ends with the same error while the
 * workspace stays too large.
 */
export function overQuota(usage: WorkspaceUsage, maxBytes: number): boolean {
  return usage.bytes > maxBytes || usage.partial;
}

function megabytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}

/** Pure: the cell's execution with the quota error added (as the error, or after the cell's own). */
export function withQuotaError(execution: Execution, usage: WorkspaceUsage, maxBytes: number): Execution {
  const held = usage.partial ? `more than ${usage.entries} files` : megabytes(usage.bytes);
  const message =
    `The workspace is full: it holds ${held}, and its limit is ${megabytes(maxBytes)}. ` +
    "Delete files you no longer need (for example with os.remove) before writing more.";
  if (!execution.error) {
    return { ...execution, error: { name: "WorkspaceFull", value: message, traceback: `WorkspaceFull: ${message}` } };
  }
  return { ...execution, stderr: `${execution.stderr}${execution.stderr && !execution.stderr.endsWith("\n") ? "\n" : ""}${message}\n` };
}
