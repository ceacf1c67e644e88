/**
 * At most `slots` holders at once, served first come first served. The batch
 * runner shares one across all batches: each slot is an isolated kernel busy on
 * a core, however many batches are running.
 */
export class Semaphore {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(slots: number) {
    this.free = Math.max(1, slots);
  }

  /** A slot if one is free now, else null: for callers that refuse (429) rather than queue. */
  tryAcquire(): (() => void) | null {
    if (this.free === 0) return null;
    this.free -= 1;
    return this.releaser();
  }

  /**
   * Waits for a slot. With `signal`, a waiter whose signal aborts leaves the
   * queue and gets null (a cancelled batch must not wait for another's item).
   */
  async acquire(signal?: AbortSignal): Promise<(() => void) | null> {
    if (signal?.aborted) return null;
    if (this.free > 0) this.free -= 1;
    else {
      const got = await new Promise<boolean>((resolve) => {
        const wake = () => {
          signal?.removeEventListener("abort", onAbort);
          resolve(true);
        };
        const onAbort = () => {
          const i = this.waiting.indexOf(wake);
          if (i >= 0) this.waiting.splice(i, 1);
          resolve(false);
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        this.waiting.push(wake);
      });
      if (!got) return null;
    }
    return this.releaser();
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.free += 1;
    };
  }
}
