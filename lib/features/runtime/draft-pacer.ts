/**
 * Coalescing a stream of drafts into a few sends. A model writes a token every few ms; sending
 * each would flood the socket and re-render the page per token. The pacer sends the first draft
 * at once (the person waits for it), then at most one per gap, always the newest; `flush` sends
 * the held one now (before the step's persisted event), `close` drops it (the step failed).
 *
 * Pure apart from the injected clock, so its rules are tested without waiting.
 */

export interface PacerClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: PacerClock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * Delivers one value. Returns the gap (ms) to keep before the next send, or null when nothing
 * went out (nothing new to show), in which case no gap starts.
 */
export type PacedSend<T> = (value: T) => number | null;

export class DraftPacer<T> {
  private pending: { value: T } | null = null;
  private timer: unknown = null;
  /** When the next send may go out; null until something was sent. */
  private nextAt: number | null = null;
  private closed = false;

  constructor(
    private readonly send: PacedSend<T>,
    private readonly clock: PacerClock = systemClock,
  ) {}

  push(value: T): void {
    if (this.closed) return;
    this.pending = { value };
    if (this.timer !== null) return;
    const wait = this.nextAt === null ? 0 : this.nextAt - this.clock.now();
    if (wait <= 0) this.deliver();
    else this.timer = this.clock.setTimeout(() => this.deliver(), wait);
  }

  /** Sends the held draft now, if there is one. */
  flush(): void {
    if (this.closed) return;
    this.cancelTimer();
    this.deliver();
  }

  /** Drops the held draft; nothing is sent after this. */
  close(): void {
    this.closed = true;
    this.cancelTimer();
    this.pending = null;
  }

  private cancelTimer(): void {
    if (this.timer === null) return;
    this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private deliver(): void {
    this.timer = null;
    const held = this.pending;
    this.pending = null;
    if (held === null || this.closed) return;
    const gap = this.send(held.value);
    if (gap !== null) this.nextAt = this.clock.now() + gap;
  }
}
