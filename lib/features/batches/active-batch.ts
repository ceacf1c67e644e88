import type { BatchCounts, BatchItemStatus } from "@/lib/foundation/protocol/batches";

/** A batch running in this process: how to stop it, and its live counts and speed. */
export interface ActiveBatch {
  abort: AbortController;
  cancelled: boolean;
  /** Another instance took the batch over (this one stalled past its lease): stop without writing. */
  abandoned: boolean;
  /** When this server started (or resumed) the batch, and how many items it has finished since: the speed. */
  startedAtMs: number;
  finishedSince: number;
  /**
   * The batch's counts, kept here while it runs: every transition goes through
   * the runner, so progress events need no query (they are two per item).
   */
  counts: BatchCounts | null;
  done: Promise<void>;
}

export function newActiveBatch(nowMs: number): ActiveBatch {
  return { abort: new AbortController(), cancelled: false, abandoned: false, startedAtMs: nowMs, finishedSince: 0, counts: null, done: Promise.resolve() };
}

/** Moves one item between statuses in the live counts (none kept: the database is read instead). */
export function moveCount(active: ActiveBatch, from: BatchItemStatus, to: BatchItemStatus): void {
  if (!active.counts) return;
  active.counts[from] -= 1;
  active.counts[to] += 1;
}

/** Waits for `done`, but no longer than `ms`. */
export async function settledOrAfter(done: Promise<void>, ms: number): Promise<void> {
  if (ms === Infinity) return done;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([done, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
