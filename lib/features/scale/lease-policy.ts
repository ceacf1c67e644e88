import { isLeaseExpired } from "@/lib/engines/db/leases";
import type { RunLease } from "@/lib/engines/db/run-leases";

export { isLeaseExpired };

/**
 * Decisions about leases, apart from any I/O: when to renew and sweep (for runs and batches
 * alike), and where a command for a session must go. Whether a lease has run out is the lease
 * module's rule (lib/engines/db/leases.ts).
 */

/** The owner renews three times per lease; sweepers look twice per lease (at most every 2 s). */
export function leaseTimings(leaseMs: number): { renewEveryMs: number; sweepEveryMs: number } {
  return { renewEveryMs: Math.max(250, Math.floor(leaseMs / 3)), sweepEveryMs: Math.max(250, Math.min(2000, Math.floor(leaseMs / 2))) };
}

/**
 * The longest an owner's death can go unnoticed: a full lease after its last
 * renewal, plus one sweep interval for another instance to look.
 */
export function worstDetectionMs(leaseMs: number): number {
  return leaseMs + leaseTimings(leaseMs).sweepEveryMs;
}

/** Where a cancel, an answer or a new message for a session is handled. */
export type RunRoute =
  /** Nobody else runs anything here: this instance handles it. */
  | { kind: "local" }
  /** A live run on another instance: the command goes to its owner. */
  | { kind: "remote"; owner: string }
  /** The owner died (its lease ran out): interrupt its run here, then handle it locally. */
  | { kind: "take_over"; lease: RunLease }
  /** The owner died, and this instance cannot run notebook cells: the run is left to instances that can, for now. */
  | { kind: "left_to_others"; lease: RunLease };

/**
 * `deferMs` as for `leasesToTakeOver`: an instance without kernels does not take a dead owner's run
 * because a person wrote in its chat, any sooner than its sweeper would.
 */
export function routeRunCommand(lease: RunLease | null, self: string, now: number, deferMs = 0): RunRoute {
  if (!lease || lease.owner === self) return { kind: "local" };
  if (!isLeaseExpired(lease, now)) return { kind: "remote", owner: lease.owner };
  return isLeaseExpired(lease, now - deferMs) ? { kind: "take_over", lease } : { kind: "left_to_others", lease };
}

/**
 * Expired leases a sweeper on `self` should take over (its own are renewed, not swept). An
 * instance that cannot run notebook cells now (its Jupyter did not start) passes `deferMs`: it
 * leaves a dead owner's runs that long to instances that can carry them on (`leave`), and takes
 * only those nobody took (so that no chat stays "running" when no instance can).
 */
export function sweepPlan(leases: readonly RunLease[], self: string, now: number, deferMs = 0): { take: RunLease[]; leave: RunLease[] } {
  const others = leases.filter((l) => l.owner !== self && isLeaseExpired(l, now));
  return { take: others.filter((l) => isLeaseExpired(l, now - deferMs)), leave: others.filter((l) => !isLeaseExpired(l, now - deferMs)) };
}

/** How long an instance without kernels leaves a dead owner's runs to the others: two more leases (four sweeps of theirs at least). */
export function takeOverDeferMs(leaseMs: number): number {
  return 2 * leaseMs;
}

/**
 * Sessions whose run is still going here although this instance no longer
 * holds their lease (it stalled past the lease and another instance already
 * interrupted the run): they must stop, or two instances would act for one chat.
 */
export function runsWithoutLease(activeSessions: Iterable<string>, held: readonly string[]): string[] {
  const holding = new Set(held);
  return [...activeSessions].filter((s) => !holding.has(s));
}
