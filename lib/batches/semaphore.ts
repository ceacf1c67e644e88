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

  async acquire(): Promise<() => void> {
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
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
