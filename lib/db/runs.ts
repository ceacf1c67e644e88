import type { Db } from "./database";

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

/** Saves a run's state snapshot; the log stays the source of truth, this is a cache. */
export function upsertRun(
  db: Db,
  r: { id: string; sessionId: string; state: unknown; agentState: string; now: string },
): void {
  db.prepare(
    `INSERT INTO runs (id, session_id, state, agent_state, started_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT(id) DO UPDATE SET state = excluded.state,
       agent_state = excluded.agent_state, updated_at = excluded.updated_at`,
  ).run(r.id, r.sessionId, JSON.stringify(r.state), r.agentState, r.now, r.now);
}

export function latestRun(db: Db, sessionId: string): RunRow | null {
  const row = db
    .prepare("SELECT * FROM runs WHERE session_id = ? ORDER BY started_at DESC, rowid DESC LIMIT 1")
    .get(sessionId) as RawRun | undefined;
  return row ? fromRaw(row) : null;
}

export function runsInState(db: Db, agentStates: readonly string[]): RunRow[] {
  const marks = agentStates.map(() => "?").join(",");
  const rows = db
    .prepare(`SELECT * FROM runs WHERE agent_state IN (${marks})`)
    .all(...agentStates) as RawRun[];
  return rows.map(fromRaw);
}

/** Ids of every run of a session (to forget their cached states when it is deleted). */
export function runIdsOfSession(db: Db, sessionId: string): string[] {
  return db.prepare("SELECT id FROM runs WHERE session_id = ?").pluck().all(sessionId) as string[];
}
