import type { Db } from "./database";

export interface StoredEventRow {
  seq: number;
  runId: string | null;
  ts: string;
  body: string;
}

/**
 * Appends one event and returns its per-session sequence number. The counter
 * lives on the session row and is bumped in the same transaction as the
 * insert, so two appends can never share a number and a crash never leaves a
 * gap that a reader could mistake for a lost event.
 */
export function appendEventRow(
  db: Db,
  sessionId: string,
  makeBody: (seq: number, ts: string) => { runId: string | null; body: string },
  ts: string,
): StoredEventRow {
  const bump = db.prepare(
    "UPDATE sessions SET last_seq = last_seq + 1, updated_at = ? WHERE id = ? RETURNING last_seq",
  );
  const insert = db.prepare(
    "INSERT INTO events (session_id, seq, run_id, ts, body) VALUES (?, ?, ?, ?, ?)",
  );
  return db.transaction(() => {
    const seq = bump.pluck().get(ts, sessionId) as number | undefined;
    if (seq === undefined) throw new Error(`session ${sessionId} does not exist`);
    const { runId, body } = makeBody(seq, ts);
    insert.run(sessionId, seq, runId, ts, body);
    return { seq, runId, ts, body };
  })();
}

export function eventsAfter(db: Db, sessionId: string, afterSeq: number, limit = 10_000): StoredEventRow[] {
  return db
    .prepare(
      `SELECT seq, run_id AS runId, ts, body FROM events
       WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
    )
    .all(sessionId, afterSeq, limit) as StoredEventRow[];
}

export function eventsOfRun(db: Db, sessionId: string, runId: string): StoredEventRow[] {
  return db
    .prepare(
      `SELECT seq, run_id AS runId, ts, body FROM events
       WHERE session_id = ? AND run_id = ? ORDER BY seq`,
    )
    .all(sessionId, runId) as StoredEventRow[];
}

export function countEvents(db: Db, sessionId: string): number {
  return db.prepare("SELECT COUNT(*) FROM events WHERE session_id = ?").pluck().get(sessionId) as number;
}

/** The session's newest seq (0 before its first event), without reading any event. */
export function lastSeq(db: Db, sessionId: string): number {
  return (db.prepare("SELECT last_seq FROM sessions WHERE id = ?").pluck().get(sessionId) as number | undefined) ?? 0;
}
