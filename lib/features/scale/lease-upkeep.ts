import { leaseTimings } from "./lease-policy";

/** What an instance does with its leases of one kind (runs, batches). */
export interface LeaseSteps {
  /** Pushes this instance's leases on, and stops here what it no longer holds. */
  renew(): Promise<void>;
  /** Takes over the leases whose owner stopped renewing them. */
  sweep(): Promise<void>;
}

/**
 * The timers that keep an instance's leases, the same for runs and batches: renew three times per
 * lease and sweep twice per lease (lease-policy.ts). Steps take turns, one at a time, and a tick
 * whose step is still waiting or running is skipped, so a slow database never piles them up nor
 * runs two renewals at once. A step's failure is reported and the next tick tries again.
 */
export class LeaseUpkeep {
  private timers: NodeJS.Timeout[] = [];
  private turn: Promise<void> = Promise.resolve();
  private readonly queued = new Set<keyof LeaseSteps>();

  constructor(
    private readonly leaseMs: number,
    private readonly steps: LeaseSteps,
    private readonly onError: (step: keyof LeaseSteps, error: unknown) => void,
  ) {}

  start(): void {
    if (this.timers.length > 0) return;
    const { renewEveryMs, sweepEveryMs } = leaseTimings(this.leaseMs);
    this.timers = [setInterval(() => void this.run("renew"), renewEveryMs), setInterval(() => void this.run("sweep"), sweepEveryMs)];
    for (const timer of this.timers) timer.unref();
  }

  /** Runs one step now, after the step under way (skipped when that same step already waits). */
  run(step: keyof LeaseSteps): Promise<void> {
    if (this.queued.has(step)) return this.turn;
    this.queued.add(step);
    this.turn = this.turn.then(async () => {
      this.queued.delete(step);
      try {
        await this.steps[step]();
      } catch (error) {
        this.onError(step, error);
      }
    });
    return this.turn;
  }

  /** Stops the timers; a step under way finishes on its own. */
  stop(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
  }

  /** Stops the timers, then waits for the step under way. */
  async close(): Promise<void> {
    this.stop();
    await this.turn;
  }
}
