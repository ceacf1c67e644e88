import path from "node:path";
import type { ArgusConfig } from "@/lib/foundation/config";

/*
 * A session's workspace: the directory its kernel works in and its uploads are copied to. Named
 * here, below the sessions, the files and the kernels, since all three reach it.
 */

export function workspaceDir(config: Pick<ArgusConfig, "sessionsDir">, sessionId: string): string {
  return path.join(config.sessionsDir, sessionId);
}

/** The lock key that guards a session's workspace directory (uploads vs. a kernel adopting it). */
export const workspaceLock = (sessionId: string) => `workspace:${sessionId}`;
