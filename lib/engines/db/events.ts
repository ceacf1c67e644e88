import type { Db } from "./database";
import { assertRunFence, type RunFence } from "./run-leases";

export interface StoredEventRow {
  seq: number;
  runId: string | null;
  ts: string;
  body: string;
}

/**
 * Appends one event and returns its per-session sequence number. The counter
 * lives on the session row and is bumped in the same transaction as the
 * insert: the bump takes the row's write lock (SQLite: the database's; Postgres:
 * the session row's, held to commit), so two appends, even from two Argus
 * instances, can never share a number, and a failed append rolls its number
 * back, leaving no gap a reader could mistake for a lost event.
 *
 * `fence`, for an event written on behalf of a run under its lease, is checked in the same
 * transaction: once another instance took the run over, the append is refused (RunLeaseLost) and
 * rolled back, so nothing is written. It is checked after the session row is taken, the order a
 * session's deletion takes its rows in (sessions, then its leases), so the two never deadlock.
 */
export function appendEventRow(
  db: Db,
  sessionId: string,
  makeBody: (seq: number, ts: string) => { runId: string | null; body: string },
  ts: string,
  fence: RunFence | null = null,
): Promise<StoredEventRow> {
  return db.transaction(async (tx) => {
    const bumped = await tx.one<{ last_seq: number }>(
      "UPDATE sessions SET last_seq = last_seq + 1, updated_at = ? WHERE id = ? RETURNING last_seq",
      [ts, sessionId],
    );
    if (bumped === undefined) throw new Error(`session ${sessionId} does not exist`);
    if (fence) await assertRunFence(tx, fence);
    const seq = bumped.last_seq;
    const { runId, body } = makeBody(seq, ts);
    await tx.run("INSERT INTO events (session_id, seq, run_id, ts, body) VALUES (?, ?, ?, ?, ?)", [
      sessionId,
      seq,
      runId,
      ts,
      body,
    ]);
    return { seq, runId, ts, body };
  });
}

export function eventsAfter(db: Db, sessionId: string, afterSeq: number, limit = 10_000): Promise<StoredEventRow[]> {
  return db.all<StoredEventRow>(
    `SELECT seq, run_id AS "runId", ts, body FROM events
     WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
    [sessionId, afterSeq, limit],
  );
}

export function eventsOfRun(db: Db, sessionId: string, runId: string): Promise<StoredEventRow[]> {
  return db.all<StoredEventRow>(
    `SELECT seq, run_id AS "runId", ts, body FROM events
     WHERE session_id = ? AND run_id = ? ORDER BY seq`,
    [sessionId, runId],
  );
}

export async function countEvents(db: Db, sessionId: string): Promise<number> {
  const row = await db.one<{ n: number }>("SELECT COUNT(*) AS n FROM events WHERE session_id = ?", [sessionId]);
  return row?.n ?? 0;
}

/** The session's newest seq (0 before its first event), without reading any event. */
export async function lastSeq(db: Db, sessionId: string): Promise<number> {
  return (await db.one<{ last_seq: number }>("SELECT last_seq FROM sessions WHERE id = ?", [sessionId]))?.last_seq ?? 0;
}
