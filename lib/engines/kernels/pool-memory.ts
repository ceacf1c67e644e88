/**
 * How many more kernels the pool may start ahead of need, given the memory the
 * machine has left. A pooled kernel with the vision stack loaded holds about
 * 250 MB; starting one when that would leave less than the reserve would trade
 * a faster first cell for a run that dies of memory, so the pool stops short
 * and tries again the next time a kernel is taken or returned.
 */
export interface PoolMemory {
  /** Bytes the system can still give out (Linux MemAvailable). */
  availableBytes: number;
  /** What one idle pooled kernel is expected to hold. */
  perKernelBytes: number;
  /** Bytes to leave for the sessions' own work and everything else. */
  reserveBytes: number;
}

export const POOLED_KERNEL_BYTES = { vision: 300 * 1024 * 1024, none: 120 * 1024 * 1024 } as const;
export const POOL_MEMORY_RESERVE_BYTES = 1024 * 1024 * 1024;

/** Pure: kernels that fit, never negative. `starting` kernels have not shown up in availableBytes yet. */
export function kernelsThatFit(m: PoolMemory, starting: number): number {
  if (!(m.perKernelBytes > 0) || !Number.isFinite(m.availableBytes)) return 0;
  const spare = m.availableBytes - m.reserveBytes - starting * m.perKernelBytes;
  return Math.max(0, Math.floor(spare / m.perKernelBytes));
}
