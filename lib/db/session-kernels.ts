import type { Db } from "./database";

/**
 * Which Jupyter kernel holds each session's notebook. Async on purpose: these calls are the
 * shape of the asynchronous storage layer (Postgres), so callers already await them.
 */
export async function sessionKernelId(db: Db, sessionId: string): Promise<string | null> {
  const id = db.prepare("SELECT kernel_id FROM session_kernels WHERE session_id = ?").pluck().get(sessionId) as string | undefined;
  return id ?? null;
}

/** Records the session's kernel; a session deleted meanwhile records nothing. */
export async function setSessionKernelId(db: Db, sessionId: string, kernelId: string): Promise<void> {
  db.prepare(
    `INSERT INTO session_kernels (session_id, kernel_id, updated_at)
     SELECT id, ?, ? FROM sessions WHERE id = ?
     ON CONFLICT (session_id) DO UPDATE SET kernel_id = excluded.kernel_id, updated_at = excluded.updated_at`,
  ).run(kernelId, new Date().toISOString(), sessionId);
}

/** Forgets the session's kernel, only if it is still `kernelId` (another instance may have replaced it). */
export async function clearSessionKernelId(db: Db, sessionId: string, kernelId: string): Promise<void> {
  db.prepare("DELETE FROM session_kernels WHERE session_id = ? AND kernel_id = ?").run(sessionId, kernelId);
}
