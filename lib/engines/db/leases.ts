import type { Db } from "./database";

/**
 * Leases: which Argus instance works on a thing (a session's run, a batch), until when. One
 * policy for every kind of lease, on SQLite and Postgres alike:
 * - the owner renews all its leases at once and learns which it still holds;
 * - a lease whose expiry passed means its owner died or stalled; another instance takes it over
 *   with a compare-and-set on the owner and expiry it saw (the expiry is the fencing token: every
 *   renewal changes it), so exactly one instance wins, and none wins a lease renewed meanwhile;
 * - an owner that finds a lease gone from its renewal stops without writing more;
 * - a table with an epoch column fences writes: each write made on behalf of the leased thing
 *   names the lease it holds (owner, epoch, the table's own columns) and is refused by the
 *   database, in its own transaction, once that lease is gone or taken again (holdsLease).
 *
 * A lease lives either in a row of its own (run_leases: acquired by inserting, released by deleting
 * the row) or in columns of the thing leased (batches: acquired when the batch is inserted, ended
 * with its status). Times are milliseconds since the epoch, by the writer's clock.
 */
export interface LeaseTable {
  table: string;
  /** The leased thing's key column. */
  key: string;
  /** The expiry column. */
  expiresAt: string;
  /** Which rows hold a lease at all (batches: only running ones). */
  live: string;
  /** Order of listings (oldest first). */
  order: string;
  /** Whether the row is the lease itself, and releasing it deletes the row. */
  rowIsLease: boolean;
  /** The fencing token's column, raised whenever an instance takes the lease again (null: none). */
  epoch: string | null;
}

/** The lease of a session's active run: a row of its own. */
export const RUN_LEASE_TABLE = { table: "run_leases", key: "session_id", expiresAt: "expires_at", live: "TRUE", order: "expires_at", rowIsLease: true, epoch: "epoch" } as const;

/** The lease of a running batch: columns of the batch (owner, lease_expires_at). */
export const BATCH_LEASE_TABLE = {
  table: "batches",
  key: "id",
  expiresAt: "lease_expires_at",
  live: "status = 'running'",
  order: "created_at, id",
  rowIsLease: false,
  epoch: null,
} as const;

/** A table whose rows are leases (acquire inserts, release deletes). */
type OwnRowTable = LeaseTable & { rowIsLease: true };

/** What a take-over compares against: the lease as the taker saw it expire. */
export interface SeenLease {
  key: string;
  owner: string;
  expiresAt: number;
}

/** Whether a lease ran out by `now` (an expiry of exactly now counts as run out). */
export function isLeaseExpired(lease: { expiresAt: number }, now: number): boolean {
  return lease.expiresAt <= now;
}

/**
 * Takes the lease of `key` for `owner` unless another instance holds it (live or expired: an
 * expired one is taken over with takeOverLease, whose caller first deals with what the dead owner
 * left). The owner itself may take it again (its next run). `fields` are the table's own columns
 * (run_leases: run_id), written with the lease. Returns the row holding the lease afterwards, so
 * the caller sees who won.
 */
export async function acquireLease<Row>(db: Db, t: OwnRowTable, lease: { key: string; owner: string; expiresAt: number }, fields: Record<string, string | number>): Promise<Row> {
  const names = Object.keys(fields);
  const row = await db.one<Row>(
    `INSERT INTO ${t.table} (${t.key}, owner, ${t.expiresAt}${names.map((n) => `, ${n}`).join("")}) VALUES (?, ?, ?${names.map(() => ", ?").join("")})
     ON CONFLICT(${t.key}) DO UPDATE SET ${[t.expiresAt, ...names].map((n) => `${n} = excluded.${n}`).join(", ")}${t.epoch ? `, ${t.epoch} = ${t.table}.${t.epoch} + 1` : ""}
     WHERE ${t.table}.owner = excluded.owner
     RETURNING *`,
    [lease.key, lease.owner, lease.expiresAt, ...names.map((n) => fields[n]!)],
  );
  return row ?? (await leaseRow<Row>(db, t, lease.key))!;
}

/** The row holding `key`'s lease, or null. */
export async function leaseRow<Row>(db: Db, t: LeaseTable, key: string): Promise<Row | null> {
  return (await db.one<Row>(`SELECT * FROM ${t.table} WHERE ${t.key} = ?`, [key])) ?? null;
}

/**
 * Pushes every live lease of `owner` to `expiresAt`; returns the rows it still holds (one another
 * instance took over is no longer among them). `adoptUnowned` also takes the live rows nobody
 * owns (batches made before owners were recorded).
 */
export async function renewLeases<Row>(db: Db, t: LeaseTable, owner: string, expiresAt: number, adoptUnowned = false): Promise<Row[]> {
  return db.all<Row>(
    `UPDATE ${t.table} SET owner = ?, ${t.expiresAt} = ?
     WHERE ${t.live} AND (owner = ?${adoptUnowned ? " OR owner IS NULL" : ""})
     RETURNING *`,
    [owner, expiresAt, owner],
  );
}

/** Rows whose live lease ran out by `now`, oldest first, except those of `self` (its own are renewed, not swept). */
export async function expiredLeases<Row>(db: Db, t: LeaseTable, now: number, self: string | null = null): Promise<Row[]> {
  return db.all<Row>(
    `SELECT * FROM ${t.table}
     WHERE ${t.live} AND owner IS NOT NULL${self === null ? "" : " AND owner <> ?"} AND ${t.expiresAt} IS NOT NULL AND ${t.expiresAt} <= ?
     ORDER BY ${t.order}`,
    self === null ? [now] : [self, now],
  );
}

/**
 * Takes over a lease seen expiring, exactly once across instances: only while the row still holds
 * that very lease (same owner, same expiry, still live, and the table's own `fence` columns, e.g.
 * the same run). `next` is the new owner and expiry, or null to end the lease (a row of its own is
 * deleted). Returns the row as taken over (as it was, when ended), or null for every loser.
 */
export async function takeOverLease<Row>(
  db: Db,
  t: LeaseTable,
  seen: SeenLease,
  next: { owner: string; expiresAt: number } | null,
  fence: Record<string, string | number> = {},
): Promise<Row | null> {
  const names = Object.keys(fence);
  const where = `${t.key} = ? AND owner = ? AND ${t.expiresAt} = ? AND ${t.live}${names.map((n) => ` AND ${n} = ?`).join("")}`;
  const whereArgs = [seen.key, seen.owner, seen.expiresAt, ...names.map((n) => fence[n]!)];
  if (next === null) {
    if (!t.rowIsLease) throw new Error(`a lease in ${t.table} ends with its row's status, not by deletion`);
    return (await db.one<Row>(`DELETE FROM ${t.table} WHERE ${where} RETURNING *`, whereArgs)) ?? null;
  }
  const raise = t.epoch ? `, ${t.epoch} = ${t.epoch} + 1` : "";
  return (await db.one<Row>(`UPDATE ${t.table} SET owner = ?, ${t.expiresAt} = ?${raise} WHERE ${where} RETURNING *`, [next.owner, next.expiresAt, ...whereArgs])) ?? null;
}

/** A lease as its holder names it in a fenced write: the fencing token. */
export interface HeldLease {
  key: string;
  owner: string;
  epoch: number;
  /** The table's own columns that must match too (run_leases: the run). */
  fence: Record<string, string | number>;
}

/**
 * Whether `held` is still the current lease, checked inside the caller's transaction `tx`. The
 * check writes the lease row (a no-op update), so it holds the row's lock to commit: an instance
 * taking the lease over waits for the fenced write to commit, and a fenced write that comes after
 * the take-over finds the row gone or its epoch raised (it waits for a take-over under way, then
 * sees its outcome: Postgres re-reads a row whose lock it waited for). Same on SQLite (one writer
 * at a time).
 */
export async function holdsLease(tx: Pick<Db, "one">, t: LeaseTable & { epoch: string }, held: HeldLease): Promise<boolean> {
  const names = Object.keys(held.fence);
  const row = await tx.one<Record<string, unknown>>(
    `UPDATE ${t.table} SET ${t.epoch} = ${t.epoch}
     WHERE ${t.key} = ? AND owner = ? AND ${t.epoch} = ? AND ${t.live}${names.map((n) => ` AND ${n} = ?`).join("")}
     RETURNING ${t.key}`,
    [held.key, held.owner, held.epoch, ...names.map((n) => held.fence[n]!)],
  );
  return row !== undefined;
}

/** Ends `owner`'s lease of `key` (only its own, and only while the `fence` columns match, e.g. the same run). */
export async function releaseLease(db: Db, t: OwnRowTable, key: string, owner: string, fence: Record<string, string | number> = {}): Promise<boolean> {
  const names = Object.keys(fence);
  const { changes } = await db.run(`DELETE FROM ${t.table} WHERE ${t.key} = ? AND owner = ?${names.map((n) => ` AND ${n} = ?`).join("")}`, [key, owner, ...names.map((n) => fence[n]!)]);
  return changes > 0;
}

/** Ends every lease of `owner` (it is stopping, or starting again under the same id), or every lease at all (null: a lone instance starting). */
export async function releaseOwnerLeases(db: Db, t: OwnRowTable, owner: string | null): Promise<number> {
  return owner === null ? (await db.run(`DELETE FROM ${t.table}`)).changes : (await db.run(`DELETE FROM ${t.table} WHERE owner = ?`, [owner])).changes;
}
