/**
 * A managed jupyter-server that failed to start is tried again in the background, less and
 * less often: the cause may pass (a port, a full disk, a busy machine), and until it starts the
 * instance serves chats without kernels and leaves other instances' runs to those that have them.
 */

/** Wait before retry `attempt` (0-based): 5 s, then doubling, at most a minute. */
export function jupyterStartRetryDelayMs(attempt: number): number {
  return Math.min(60_000, 5_000 * 2 ** Math.max(0, attempt));
}

/**
 * Tries `start` after each delay until it succeeds or `stopped()`; each failure is logged.
 * Resolves true once started, false when stopped first. `wait` is the timer (tests pass a fast one).
 */
export async function retryJupyterStart(o: {
  start: () => Promise<void>;
  stopped: () => boolean;
  log: (line: string) => void;
  wait: (ms: number) => Promise<void>;
}): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    await o.wait(jupyterStartRetryDelayMs(attempt));
    if (o.stopped()) return false;
    try {
      await o.start();
      o.log(`[argus] jupyter-server started on retry ${attempt + 1}`);
      return true;
    } catch (error) {
      if (o.stopped()) return false;
      o.log(`[argus] jupyter-server still did not start (retry ${attempt + 1}): ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
