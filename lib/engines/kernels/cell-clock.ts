/**
 * A cell's wall-clock limit. It runs through bridge calls too (a cell looping on vqa must end);
 * only waiting on the person (tool review) holds it, and it goes on with the time that was left.
 */
export class CellClock {
  private timer: NodeJS.Timeout | undefined;
  private left: number;
  private startedAt = Date.now();
  private holds = 0;

  constructor(limitMs: number, private readonly onExpire: () => void) {
    this.left = limitMs;
  }

  /** Starts (or, after a hold, resumes) counting down what is left. */
  start(): void {
    this.startedAt = Date.now();
    this.timer = setTimeout(() => this.onExpire(), this.left);
  }

  /** Holds the clock while `work` runs; overlapping holds resume it once the last ends. */
  async hold<T>(work: Promise<T>): Promise<T> {
    if (this.holds++ === 0) {
      clearTimeout(this.timer);
      this.left = Math.max(0, this.left - (Date.now() - this.startedAt));
    }
    try {
      return await work;
    } finally {
      if (--this.holds === 0) this.start();
    }
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
