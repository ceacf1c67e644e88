import { isDiskFull } from "@/lib/engines/db/disk-space";
import type { EventLog } from "./event-log";
import { runEndingEvents, runEndingReason, type RunEnding } from "./run-ending";

/** The ending of a run the full disk cut off (written later, once the disk has room). */
const DISK_FULL: RunEnding = { kind: "disk_full" };

/** How often the endings of runs cut off by a full disk are tried again. */
const UNWRITTEN_RETRY_MS = 2000;

/**
 * Endings of runs the full disk cut off: a run that could not go on because the disk is full, and
 * whose ending could not be written either, is ended in memory (the connected clients are told at
 * once) and its ending is written into the chat as soon as writes work again, tried every
 * UNWRITTEN_RETRY_MS until the disk takes it. Split from run-manager.ts, which calls `end`.
 */
export class DiskFullEndings {
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(private readonly events: EventLog) {}

  async end(sessionId: string, runId: string): Promise<void> {
    await this.events.endUnwritten(sessionId, runId, runEndingReason(DISK_FULL));
    let trying = false;
    this.retryTimer ??= setInterval(() => {
      if (trying) return;
      trying = true;
      void this.writeUnwritten()
        .then((error) => {
          if (!error && this.retryTimer) {
            clearInterval(this.retryTimer);
            this.retryTimer = null;
          }
        })
        .finally(() => (trying = false));
    }, UNWRITTEN_RETRY_MS);
    this.retryTimer.unref();
  }

  /** Stops retrying (the server is stopping; the next start marks such runs interrupted from the log). */
  stop(): void {
    if (this.retryTimer) clearInterval(this.retryTimer);
  }

  /** Writes endings kept by `end`; returns the error if the disk still refuses. */
  async writeUnwritten(): Promise<unknown> {
    if (this.events.unwrittenCount === 0) return null;
    const error = await this.events.writeUnwritten(() => runEndingEvents(DISK_FULL));
    if (error && !isDiskFull(error)) console.error("[argus] could not record how a run ended:", error);
    return error;
  }
}
