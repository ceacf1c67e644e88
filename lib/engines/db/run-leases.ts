import { ArgusError } from "@/lib/foundation/errors";
import type { Db } from "./database";
import * as leases from "./leases";
import { RUN_LEASE_TABLE as T } from "./leases";

/**
 * Run leases: which Argus instance runs a session's active run, until when.
 * A row of its own per session in run_leases, kept by the lease module (leases.ts).
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
  /** The fencing token: raised each time an instance takes the session's row again (see leases.ts). */
  epoch: number;
}

interface RawLease {
  session_id: string;
  run_id: string;
  owner: string;
  expires_at: number;
  epoch: number;
}

const fromRaw = (r: RawLease): RunLease => ({ sessionId: r.session_id, runId: r.run_id, owner: r.owner, expiresAt: Number(r.expires_at), epoch: Number(r.epoch) });

/** The lease a write for a run is made under: refused by the database once it is no longer current. */
export type RunFence = Pick<RunLease, "sessionId" | "runId" | "owner" | "epoch">;

/** The plain words of a write refused because another instance took the run over. */
export const RUN_TAKEN_OVER_MESSAGE = "Another Argus instance took this run over (this one stopped answering for a while), so this instance no longer writes to it.";

/** A write for a run made under a lease that is no longer current: the writer must stop the run. */
export class RunLeaseLost extends ArgusError {
  constructor(readonly fence: RunFence) {
    super("conflict:message", RUN_TAKEN_OVER_MESSAGE);
  }
}

export function isRunLeaseLost(error: unknown): error is RunLeaseLost {
  return error instanceof RunLeaseLost;
}

/**
 * Refuses, inside the caller's transaction, a write made under `fence` unless it is still the
 * session's current lease (same run, owner and epoch), holding the lease row's lock to commit.
 */
export async function assertRunFence(tx: Pick<Db, "one">, fence: RunFence): Promise<void> {
  const held = await leases.holdsLease(tx, T, { key: fence.sessionId, owner: fence.owner, epoch: fence.epoch, fence: { run_id: fence.runId } });
  if (!held) throw new RunLeaseLost(fence);
}

/**
 * Takes the session's lease for a new run, unless another instance holds it
 * (live or expired: an expired one is taken over by the sweeper, which first
 * tells the chat). Returns the lease that holds the session afterwards, so the
 * caller sees who won.
 */
export async function acquireLease(db: Db, lease: Omit<RunLease, "epoch">): Promise<RunLease> {
  return fromRaw(await leases.acquireLease<RawLease>(db, T, { key: lease.sessionId, owner: lease.owner, expiresAt: lease.expiresAt }, { run_id: lease.runId }));
}

export async function leaseOfSession(db: Db, sessionId: string): Promise<RunLease | null> {
  const row = await leases.leaseRow<RawLease>(db, T, sessionId);
  return row ? fromRaw(row) : null;
}

/** Pushes every lease of `owner` to `expiresAt`; returns the sessions it still holds. */
export async function renewLeases(db: Db, owner: string, expiresAt: number): Promise<string[]> {
  return (await leases.renewLeases<RawLease>(db, T, owner, expiresAt)).map((r) => r.session_id);
}

/** Ends the lease of a run that settled (only the owner's own row for that very run). */
export async function releaseLease(db: Db, lease: Pick<RunLease, "sessionId" | "runId" | "owner">): Promise<boolean> {
  return leases.releaseLease(db, T, lease.sessionId, lease.owner, { run_id: lease.runId });
}

/** Drops every lease of `owner` (it is stopping, or starting again under the same id). */
export async function releaseOwnerLeases(db: Db, owner: string): Promise<number> {
  return leases.releaseOwnerLeases(db, T, owner);
}

/** Drops every lease (a lone instance starting: nobody else can be running anything). */
export async function releaseAllLeases(db: Db): Promise<number> {
  return leases.releaseOwnerLeases(db, T, null);
}

export async function expiredLeases(db: Db, now: number): Promise<RunLease[]> {
  return (await leases.expiredLeases<RawLease>(db, T, now)).map(fromRaw);
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
  const seen = { key: lease.sessionId, owner: lease.owner, expiresAt: lease.expiresAt };
  return (await leases.takeOverLease<RawLease>(db, T, seen, null, { run_id: lease.runId })) !== null;
}

/**
 * Takes a lease seen expiring (or this instance's own, left by its last process) for `owner`,
 * exactly once across instances, raising its epoch so writes under the old one are refused
 * (fencing). Returns the lease as taken, or null for every loser.
 */
export async function takeOverRunLease(db: Db, lease: RunLease, next: { owner: string; expiresAt: number }): Promise<RunLease | null> {
  const seen = { key: lease.sessionId, owner: lease.owner, expiresAt: lease.expiresAt };
  const row = await leases.takeOverLease<RawLease>(db, T, seen, next, { run_id: lease.runId });
  return row ? fromRaw(row) : null;
}
