import type { Db } from "./database";

/**
 * Which Jupyter kernel holds each session's notebook.
 */
export async function sessionKernelId(db: Db, sessionId: string): Promise<string | null> {
  const row = await db.one<{ kernel_id: string }>("SELECT kernel_id FROM session_kernels WHERE session_id = ?", [sessionId]);
  return row?.kernel_id ?? null;
}

/** The session whose notebook this kernel is, or null (a pooled or stray kernel: kernel-ledger.ts). */
export async function sessionHoldingKernel(db: Db, kernelId: string): Promise<string | null> {
  const row = await db.one<{ session_id: string }>("SELECT session_id FROM session_kernels WHERE kernel_id = ?", [kernelId]);
  return row?.session_id ?? null;
}

/** Records the session's kernel; a session deleted meanwhile records nothing. */
export async function setSessionKernelId(db: Db, sessionId: string, kernelId: string): Promise<void> {
  await db.run(
    `INSERT INTO session_kernels (session_id, kernel_id, updated_at)
     SELECT id, ?, ? FROM sessions WHERE id = ?
     ON CONFLICT (session_id) DO UPDATE SET kernel_id = excluded.kernel_id, updated_at = excluded.updated_at`,
    [kernelId, new Date().toISOString(), sessionId],
  );
}

/** Forgets the session's kernel, only if it is still `kernelId` (another instance may have replaced it). */
export async function clearSessionKernelId(db: Db, sessionId: string, kernelId: string): Promise<void> {
  await db.run("DELETE FROM session_kernels WHERE session_id = ? AND kernel_id = ?", [sessionId, kernelId]);
}
