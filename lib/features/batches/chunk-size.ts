/**
 * How many items a batch lane sends in one kernel call. One call per item spends more CPU on
 * the round trip through jupyter-server than a fast function spends working, so fast items go
 * in chunks; but a chunk's outcomes are written (and shown) when it ends, so a chunk should
 * take about a second at most for progress to stay live. Start at one item, double while items
 * are fast, never past what fits in the target time; halve after a chunk that failed badly (a
 * timeout, a crash, an overflow: the kernel was replaced and the rest run again).
 */
export interface ChunkSizing {
  /** Largest chunk. */
  max: number;
  /** Seconds a chunk should take at most. */
  targetSeconds: number;
}

export const DEFAULT_CHUNK_SIZING: ChunkSizing = { max: 32, targetSeconds: 1 };

export interface ChunkRecord {
  /** Items that ended in the chunk (its outcomes). */
  finished: number;
  /** Wall-clock seconds the chunk took. */
  seconds: number;
  /** The chunk ended badly (timeout, crash, overflow, an item left to run again). */
  failed: boolean;
}

/** The size of the next chunk after one of `current` items ended as `record` says. */
export function nextChunkSize(current: number, record: ChunkRecord, sizing: ChunkSizing = DEFAULT_CHUNK_SIZING): number {
  const size = Math.max(1, Math.min(sizing.max, Math.floor(current)));
  if (record.failed) return Math.max(1, Math.floor(size / 2));
  if (record.finished <= 0) return size;
  const perItem = Math.max(record.seconds, 0) / record.finished;
  const fits = perItem > 0 ? Math.floor(sizing.targetSeconds / perItem) : sizing.max;
  return Math.max(1, Math.min(sizing.max, size * 2, fits));
}
