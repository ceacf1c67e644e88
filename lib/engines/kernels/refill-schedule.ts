/**
 * When the kernel pool may start its refills. A refill is a new kernel
 * importing the vision stack: ~2 s of CPU, which on a small machine competes
 * with the cells of the run that just took a kernel (the count-coins run took
 * twice as long with its refill in the middle). So a refill waits while any
 * cell is running, and for a short quiet spell after the last one ends or a
 * kernel is taken (a run goes take → cell → model call → take → cell, and
 * with a fast model the gaps are tens of ms). It never waits longer than `maxWaitMs` in all, so a server
 * whose sessions always have some cell running still refills.
 *
 * A person is never kept waiting by this: a request that finds the pool empty
 * starts its own kernel at once (KernelPool.take); only the spare kernels for
 * the next request are deferred.
 *
 * Pure: times are passed in, so the rules are tested without a clock.
 */

export interface RefillPolicy {
  /** Quiet time after the last cell ends before a refill starts. */
  quietMs: number;
  /** Longest a refill is put off, however busy the kernels are. */
  maxWaitMs: number;
}

export const DEFAULT_REFILL_POLICY: RefillPolicy = { quietMs: 1000, maxWaitMs: 15_000 };

/** The policy for a configured quiet time (ARGUS_POOL_REFILL_QUIET_MS); 0 refills at once, as before this schedule. */
export function refillPolicy(quietMs: number): RefillPolicy {
  return quietMs === 0 ? { quietMs: 0, maxWaitMs: 0 } : { ...DEFAULT_REFILL_POLICY, quietMs };
}

export interface RefillState {
  /** Cells running now, in any kernel. */
  busyCells: number;
  /** When a kernel was last taken (its first cell is about to run) or a cell last ended; null when neither happened yet. */
  lastActivityAt: number | null;
  /** When the pool first found itself short and put the refill off; null when it is not waiting. */
  waitingSince: number | null;
  now: number;
}

/** Pure: 0 to start refilling now, else how many ms to wait before asking again. */
export function refillDelay(state: RefillState, policy: RefillPolicy = DEFAULT_REFILL_POLICY): number {
  const waited = state.waitingSince === null ? 0 : state.now - state.waitingSince;
  const waitLeft = policy.maxWaitMs - waited;
  if (waitLeft <= 0) return 0;
  // Busy: ask again when the wait runs out (a cell ending asks earlier).
  if (state.busyCells > 0) return waitLeft;
  if (state.lastActivityAt === null) return 0;
  const quietLeft = policy.quietMs - (state.now - state.lastActivityAt);
  return quietLeft > 0 ? Math.min(quietLeft, waitLeft) : 0;
}
