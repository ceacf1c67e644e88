/**
 * Milliseconds since Argus started, for the start-up log's breakdown. `npm start` passes the
 * moment it began (ARGUS_START_EPOCH_MS), so the install and build checks count too; run
 * directly, the server counts from its own process start.
 */
export function startOffsetMs(nowMs: number, epochEnv: string | undefined, processStartMs: number): number {
  const epoch = epochEnv !== undefined && /^\d{10,16}$/.test(epochEnv) ? Number(epochEnv) : processStartMs;
  return Math.max(0, nowMs - epoch);
}

/** "+1.23 s", since start. */
export function sinceStart(): string {
  const ms = startOffsetMs(Date.now(), process.env.ARGUS_START_EPOCH_MS, performance.timeOrigin);
  return `+${(ms / 1000).toFixed(2)} s`;
}
