import type { Db } from "./database";

/**
 * Run leases: which Argus instance runs a session's active run, until when.
 * Written `async` although SQLite answers synchronously, so the functions drop
 * into the asynchronous database layer (Postgres) unchanged.
 */
export interface RunLease {
  sessionId: string;
  runId: string;
  /** The instance id of the owner (ARGUS_INSTANCE_ID, or generated at its start). */
  owner: string;
  /** Milliseconds since the epoch, by the owner's clock. */
  expiresAt: number;
}

interface RawLease {
  session_id: string;
  run_id: string;
  owner: string;
  expires_at: number;
}

const fromRaw = (r: RawLease): RunLease => ({ sessionId: r.session_id, runId: r.run_id, owner: r.owner, expiresAt: r.expires_at });

/**
 * Takes the session's lease for a new run, unless another instance holds it
 * (live or expired: an expired one is taken over by the sweeper, which first
 * tells the chat). Returns the lease that holds the session afterwards, so the
 * caller sees who won.
 */
export async function acquireLease(db: Db, lease: RunLease): Promise<RunLease> {
  const row = await db.one<RawLease>(
    `INSERT INTO run_leases (session_id, run_id, owner, expires_at) VALUES (?, ?, ?, ?)
     ON CONFLICT(session_id) DO UPDATE SET run_id = excluded.run_id, expires_at = excluded.expires_at
     WHERE run_leases.owner = excluded.owner
     RETURNING *`,
    [lease.sessionId, lease.runId, lease.owner, lease.expiresAt],
  );
  if (row) return fromRaw(row);
  return (await leaseOfSession(db, lease.sessionId))!;
}

export async function leaseOfSession(db: Db, sessionId: string): Promise<RunLease | null> {
  const row = await db.one<RawLease>("SELECT * FROM run_leases WHERE session_id = ?", [sessionId]);
  return row ? fromRaw(row) : null;
}

/** Pushes every lease of `owner` to `expiresAt`; returns the sessions it still holds. */
export async function renewLeases(db: Db, owner: string, expiresAt: number): Promise<string[]> {
  const rows = await db.all<{ session_id: string }>(
    "UPDATE run_leases SET expires_at = ? WHERE owner = ? RETURNING session_id",
    [expiresAt, owner],
  );
  return rows.map((r) => r.session_id);
}

/** Ends the lease of a run that settled (only the owner's own row for that very run). */
export async function releaseLease(db: Db, lease: Pick<RunLease, "sessionId" | "runId" | "owner">): Promise<boolean> {
  const { changes } = await db.run("DELETE FROM run_leases WHERE session_id = ? AND run_id = ? AND owner = ?", [
    lease.sessionId,
    lease.runId,
    lease.owner,
  ]);
  return changes > 0;
}

/** Drops every lease of `owner` (it is stopping, or starting again under the same id). */
export async function releaseOwnerLeases(db: Db, owner: string): Promise<number> {
  return (await db.run("DELETE FROM run_leases WHERE owner = ?", [owner])).changes;
}

/** Drops every lease (a lone instance starting: nobody else can be running anything). */
export async function releaseAllLeases(db: Db): Promise<number> {
  return (await db.run("DELETE FROM run_leases")).changes;
}

export async function expiredLeases(db: Db, now: number): Promise<RunLease[]> {
  return (await db.all<RawLease>("SELECT * FROM run_leases WHERE expires_at <= ? ORDER BY expires_at", [now])).map(fromRaw);
}

export async function allLeases(db: Db): Promise<RunLease[]> {
  return (await db.all<RawLease>("SELECT * FROM run_leases")).map(fromRaw);
}

/**
 * Takes an expired lease away from its dead owner, exactly once across
 * instances: the row is deleted only if it is still the one that was seen
 * expiring (same owner, same run, same expiry). True for the one winner.
 */
export async function claimExpiredLease(db: Db, lease: RunLease): Promise<boolean> {
  const { changes } = await db.run(
    "DELETE FROM run_leases WHERE session_id = ? AND run_id = ? AND owner = ? AND expires_at = ?",
    [lease.sessionId, lease.runId, lease.owner, lease.expiresAt],
  );
  return changes > 0;
}
