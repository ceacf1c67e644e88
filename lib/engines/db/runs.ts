import type { Db } from "./database";
import { assertRunFence, type RunFence } from "./run-leases";

export interface RunRow {
  id: string;
  sessionId: string;
  state: unknown;
  agentState: string;
  startedAt: string;
  updatedAt: string;
}

interface RawRun {
  id: string;
  session_id: string;
  state: string;
  agent_state: string;
  started_at: string;
  updated_at: string;
}

const fromRaw = (r: RawRun): RunRow => ({
  id: r.id,
  sessionId: r.session_id,
  state: JSON.parse(r.state) as unknown,
  agentState: r.agent_state,
  startedAt: r.started_at,
  updatedAt: r.updated_at,
});

/**
 * Saves a run's state snapshot; the log stays the source of truth, this is a cache. Under a
 * `fence` (the run's lease) it is refused once another instance took the run over, so a stale
 * owner cannot put back a live state over the ending that instance wrote.
 */
export async function upsertRun(
  db: Db,
  r: { id: string; sessionId: string; state: unknown; agentState: string; now: string },
  fence: RunFence | null = null,
): Promise<void> {
  const write = (tx: Db) =>
    tx.run(
      `INSERT INTO runs (id, session_id, state, agent_state, started_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET state = excluded.state,
         agent_state = excluded.agent_state, updated_at = excluded.updated_at`,
      [r.id, r.sessionId, JSON.stringify(r.state), r.agentState, r.now, r.now],
    );
  if (!fence) {
    await write(db);
    return;
  }
  // Written first, then checked (a refusal rolls it back): a session's deletion takes the run's
  // row before its lease too, so the two never wait on each other in opposite orders.
  await db.transaction(async (tx) => {
    await write(tx);
    await assertRunFence(tx, fence);
  });
}

export async function latestRun(db: Db, sessionId: string): Promise<RunRow | null> {
  // Two runs can start in the same millisecond; insertion order breaks the tie
  // (SQLite's rowid, Postgres's ord column: it has no rowid).
  const order = db.kind === "postgres" ? "ord" : "rowid";
  const row = await db.one<RawRun>(
    `SELECT * FROM runs WHERE session_id = ? ORDER BY started_at DESC, ${order} DESC LIMIT 1`,
    [sessionId],
  );
  return row ? fromRaw(row) : null;
}

export async function runsInState(db: Db, agentStates: readonly string[]): Promise<RunRow[]> {
  if (agentStates.length === 0) return [];
  const marks = agentStates.map(() => "?").join(",");
  const rows = await db.all<RawRun>(`SELECT * FROM runs WHERE agent_state IN (${marks})`, agentStates);
  return rows.map(fromRaw);
}

/** Ids of every run of a session (to forget their cached states when it is deleted). */
export async function runIdsOfSession(db: Db, sessionId: string): Promise<string[]> {
  return (await db.all<{ id: string }>("SELECT id FROM runs WHERE session_id = ?", [sessionId])).map((r) => r.id);
}
