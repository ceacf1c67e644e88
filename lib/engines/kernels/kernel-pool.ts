import os from "node:os";
import { ArgusError } from "@/lib/foundation/errors";
import { JupyterKernels, type JupyterKernelsOptions } from "./jupyter-kernels";
import type { KernelWait } from "@/lib/foundation/protocol/waits";
import type { KernelHandle } from "./kernel-handle";
import { kernelsThatFit, POOL_MEMORY_RESERVE_BYTES, POOLED_KERNEL_BYTES } from "./pool-memory";
import { DEFAULT_REFILL_POLICY, refillDelay, type RefillPolicy } from "./refill-schedule";

export interface KernelPoolOptions extends JupyterKernelsOptions {
  poolSize: number;
  /** Live kernels at most (sessions', isolated, pooled and starting): a cap on what model-written code can hold. */
  maxKernels: number;
  /** Kernels the registry holds for sessions: they count against the cap too. */
  sessionKernels: () => number;
  /** At the cap: shut down an idle session's kernel to make room; false when none may go. */
  makeRoom?: () => Promise<boolean>;
  /** What kernels import before they are ready (sets how much memory a pooled one is expected to hold). */
  preload?: "vision" | "none";
  /** Bytes the kernels' machine can still give out; os.freemem (MemAvailable) by default, null when kernels run elsewhere (external Jupyter). */
  availableMemory?: (() => number) | null;
  log?: (line: string) => void;
  /** Each time the pool reaches its size (the start-up log says when it first did). */
  onFull?: () => void;
  /** When refills may start while cells run (refill-schedule.ts). */
  refillPolicy?: RefillPolicy;
}

/** Pooled kernels wait in `<sessions>/_pool/<uuid>` until a session adopts one. */
const POOL_DIR = "_pool";

/**
 * Where kernels come from: the connection to Jupyter (jupyter-kernels.ts), a pool of kernels
 * started ahead so that nobody waits for a cold start, and the count of every
 * live kernel against the cap. The registry decides what a kernel is for.
 */
export class KernelPool {
  private readonly jupyter: JupyterKernels;
  private pool: KernelHandle[] = [];
  private starting = 0;
  /** Kernels started for immediate use (no pooled one was ready), handed out but not yet registered, and isolated ones on loan. */
  private startingDirect = 0;
  private inHand = 0;
  private lentIsolated = 0;
  /** Waiting for a pooled kernel that is still starting, because the cap allows no other. */
  private poolWaiters: (() => void)[] = [];
  private closed = false;
  private generation = 0;
  private memoryShortSaid = false;
  /** Cells running in any kernel this pool started, and when one last ended or a kernel was taken: refills wait for them. */
  private busyCells = 0;
  private lastActivityAt: number | null = null;
  private refillWaitingSince: number | null = null;
  private refillTimer: NodeJS.Timeout | null = null;

  constructor(private readonly o: KernelPoolOptions) {
    this.jupyter = new JupyterKernels(o, (running) => this.cellRunning(running));
  }

  connect(): void {
    this.jupyter.connect();
    this.generation++;
  }

  /** A running kernel of the server's, by id (see JupyterKernels.reconnect); null when it is gone. */
  reconnect(kernelId: string, workspace: string): Promise<KernelHandle | null> {
    return this.jupyter.reconnect(kernelId, workspace);
  }

  stillRunning(kernelId: string): Promise<boolean> {
    return this.jupyter.stillRunning(kernelId);
  }

  activityOf(kernelId: string): Promise<{ lastActivityMs: number | null; busy: boolean } | null> {
    return this.jupyter.activityOf(kernelId);
  }

  interruptById(kernelId: string): Promise<void> {
    return this.jupyter.interruptById(kernelId);
  }

  shutdownById(kernelId: string): Promise<void> {
    return this.jupyter.shutdownById(kernelId);
  }

  /** Every kernel that exists or is being started. */
  private liveCount(): number {
    return this.pool.length + this.starting + this.startingDirect + this.inHand + this.o.sessionKernels() + this.lentIsolated;
  }

  private wakePoolWaiters(): void {
    for (const wake of this.poolWaiters.splice(0)) wake();
  }

  stats(): { pooled: number; starting: number } {
    return { pooled: this.pool.length, starting: this.starting };
  }

  /** Kernels the machine's free memory allows the pool to start now (pool-memory.ts). */
  private memoryRoom(): number {
    if (this.o.availableMemory === null) return this.o.poolSize;
    return kernelsThatFit(
      {
        availableBytes: (this.o.availableMemory ?? os.freemem)(),
        perKernelBytes: POOLED_KERNEL_BYTES[this.o.preload ?? "none"],
        reserveBytes: POOL_MEMORY_RESERVE_BYTES,
      },
      this.starting,
    );
  }

  private cellRunning(running: boolean): void {
    this.busyCells += running ? 1 : -1;
    if (running) return;
    this.lastActivityAt = Date.now();
    if (this.busyCells === 0 && this.refillWaitingSince !== null) this.fill();
  }

  private isShort(): boolean {
    return this.pool.length + this.starting < this.o.poolSize;
  }

  /**
   * Refills the pool now, or once the running cells are done (refill-schedule.ts). Nobody waits
   * on a deferred refill: `take` starts a kernel of its own when none is pooled.
   */
  fill(): void {
    if (this.closed) return;
    if (this.refillTimer) clearTimeout(this.refillTimer);
    this.refillTimer = null;
    if (!this.isShort()) {
      this.refillWaitingSince = null;
      return;
    }
    const now = Date.now();
    const delay = refillDelay(
      { busyCells: this.busyCells, lastActivityAt: this.lastActivityAt, waitingSince: this.refillWaitingSince, now },
      this.o.refillPolicy ?? DEFAULT_REFILL_POLICY,
    );
    if (delay > 0) {
      this.refillWaitingSince ??= now;
      this.refillTimer = setTimeout(() => this.fill(), delay);
      this.refillTimer.unref();
      return;
    }
    this.refillWaitingSince = null;
    this.startRefills();
  }

  /** Starts pooled kernels up to the pool size, the cap on live kernels and what free memory allows. */
  private startRefills(): void {
    const generation = this.generation;
    const short = this.isShort();
    let room = short ? this.memoryRoom() : 0;
    // Said once per shortage, not at every take and return while it lasts.
    if (short && room === 0 && this.starting === 0 && !this.memoryShortSaid) {
      this.memoryShortSaid = true;
      this.o.log?.("[kernels] the pool is not refilled: starting another kernel would leave under 1 GB of memory available");
    } else if (room > 0) this.memoryShortSaid = false;
    while (room-- > 0 && this.pool.length + this.starting < this.o.poolSize && this.liveCount() < this.o.maxKernels) {
      this.starting++;
      void this.jupyter.startKernel(POOL_DIR)
        .then((handle) => {
          if (this.closed || generation !== this.generation) return void handle.shutdown();
          this.pool.push(handle);
          if (this.pool.length >= this.o.poolSize) this.o.onFull?.();
        })
        .catch((error: unknown) => this.o.log?.(`[kernels] could not start a pooled kernel: ${String(error)}`))
        .finally(() => {
          this.starting--;
          this.wakePoolWaiters();
        });
    }
  }

  /**
   * A ready kernel: a pooled one, else a new one while under the cap, else
   * the pooled one still starting; past the cap with none coming, a busy
   * error the person can act on. The kernel counts as "in hand" until the
   * caller registers it (`settle`), so the pool never refills past the cap meanwhile.
   * `onWait` hears each time the request has to wait, and what for.
   */
  async take(onWait?: (wait: KernelWait) => void): Promise<{ kernel: KernelHandle; settle: () => void }> {
    const kernel = await this.reserveKernel(onWait);
    // Its first cell is on its way: the refill below waits for it (refill-schedule.ts).
    this.lastActivityAt = Date.now();
    this.inHand++;
    let settled = false;
    this.fill();
    return {
      kernel,
      settle: () => {
        if (settled) return;
        settled = true;
        this.inHand--;
      },
    };
  }

  private async reserveKernel(onWait?: (wait: KernelWait) => void): Promise<KernelHandle> {
    for (;;) {
      let handle: KernelHandle | undefined;
      while ((handle = this.pool.shift())) {
        if (!handle.lost) break;
        void handle.shutdown();
      }
      if (handle) return handle;
      if (this.liveCount() < this.o.maxKernels) {
        onWait?.({ what: "notebook_start", ahead: null });
        this.startingDirect++;
        try {
          return await this.jupyter.startKernel(POOL_DIR);
        } finally {
          this.startingDirect--;
        }
      }
      // A kernel idle long enough gives its place before anyone is refused (or waits for one starting).
      if (await this.o.makeRoom?.()) continue;
      if (this.starting === 0) {
        throw new ArgusError(
          "unavailable:jupyter",
          `Argus is already running as many notebooks as it may (${this.o.maxKernels}). Try again in a minute, or stop a run you no longer need.`,
        );
      }
      onWait?.({ what: "free_kernel", ahead: this.poolWaiters.length });
      await new Promise<void>((resolve) => this.poolWaiters.push(resolve));
    }
  }

  /** A kernel lent out for one isolated job; it counts against the cap until `returnIsolated`. */
  async takeIsolated(onWait?: (wait: KernelWait) => void): Promise<KernelHandle> {
    const { kernel, settle } = await this.take(onWait);
    this.lentIsolated++;
    settle();
    return kernel;
  }

  /** The isolated kernel was shut down: its place under the cap is free again. */
  returnIsolated(): void {
    this.lentIsolated--;
    this.wakePoolWaiters();
    this.fill();
  }

  /** Marks every pooled kernel lost and forgets it (Jupyter died with them). */
  dropPooled(reason: string): void {
    for (const k of this.pool) k.markLost(reason);
    this.pool = [];
  }

  /** Stops refilling and hands back the pooled kernels for shutting down. */
  drain(): KernelHandle[] {
    this.closed = true;
    if (this.refillTimer) clearTimeout(this.refillTimer);
    const pooled = this.pool;
    this.pool = [];
    return pooled;
  }

  /** After every kernel is shut down: disposing the manager earlier would cut their connections. */
  dispose(): void {
    this.jupyter.dispose();
  }
}
