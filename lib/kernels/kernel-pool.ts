import { randomUUID } from "node:crypto";
import { mkdir } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { KernelAPI, KernelManager, ServerConnection, type Kernel } from "@jupyterlab/services";
import { ArgusError } from "@/lib/errors";
import type { BridgeMethods } from "./bridge";
import type { JupyterBackend } from "./jupyter-server";
import { explainJupyterError } from "./jupyter-errors";
import { KernelHandle } from "./kernel-handle";
import { kernelsThatFit, POOL_MEMORY_RESERVE_BYTES, POOLED_KERNEL_BYTES } from "./pool-memory";
import { DEFAULT_REFILL_POLICY, refillDelay, type RefillPolicy } from "./refill-schedule";

export interface KernelPoolOptions {
  jupyter: JupyterBackend;
  /** Root the jupyter-server serves; session workspaces are its children, and new kernels start under it. */
  sessionsDir: string;
  kernelName: string;
  poolSize: number;
  /** Live kernels at most (sessions', isolated, pooled and starting): a cap on what model-written code can hold. */
  maxKernels: number;
  interruptGraceMs: number;
  bridge: BridgeMethods;
  /** Kernels the registry holds for sessions: they count against the cap too. */
  sessionKernels: () => number;
  /**
   * `kernel`: the kernel host has its own disk (ARGUS_WORKSPACE_TRANSPORT=kernel), so no
   * directory is made here and kernels start in the Jupyter server's root; the registry moves
   * each into its session's workspace there.
   */
  transport?: "shared" | "kernel";
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
 * Where kernels come from: the connection to Jupyter, a pool of kernels
 * started ahead so that nobody waits for a cold start, and the count of every
 * live kernel against the cap. The registry decides what a kernel is for.
 */
export class KernelPool {
  private manager: KernelManager | null = null;
  private settings: ServerConnection.ISettings | null = null;
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

  constructor(private readonly o: KernelPoolOptions) {}

  connect(): void {
    const endpoint = this.o.jupyter.endpoint();
    if (!endpoint) throw new Error("Jupyter is not available, so kernels cannot start.");
    this.manager?.dispose();
    this.settings = ServerConnection.makeSettings({
      baseUrl: endpoint.baseUrl,
      wsUrl: endpoint.baseUrl.replace(/^http/, "ws"),
      token: endpoint.token,
      appendToken: true,
    });
    this.manager = new KernelManager({ serverSettings: this.settings });
    // The manager's first listing never succeeds when the server refuses the token (or is down);
    // disposing it then rejects `ready` with nobody listening, which would take the process down.
    // Kernel starts report those failures themselves (jupyter-errors.ts).
    this.manager.ready.catch(() => undefined);
    this.generation++;
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

  /** Starts a kernel in a fresh directory under `dir` (relative to the sessions root). */
  private async startKernel(dir: string): Promise<KernelHandle> {
    const manager = this.manager;
    if (!manager) throw new Error("the kernel registry is not started");
    const remote = this.o.transport === "kernel";
    const relative = path.join(dir, randomUUID());
    const workspace = path.join(this.o.sessionsDir, relative);
    let connection: Kernel.IKernelConnection;
    if (!remote) await mkdir(workspace, { recursive: true, mode: 0o700 });
    try {
      // jupyter-server's POST /api/kernels takes `path` (the kernel's cwd), which services'
      // typings omit; a remote kernel starts in the server's root and moves to its workspace.
      connection = await manager.startNew((remote ? { name: this.o.kernelName } : { name: this.o.kernelName, path: relative }) as never);
    } catch (error) {
      throw explainJupyterError(error, this.settings?.baseUrl ?? "");
    }
    const handle = this.handleFor(connection, workspace);
    try {
      // Fails at once if the kernel dies while starting (see KernelHandle.ready).
      await handle.ready();
    } catch (error) {
      await handle.shutdown();
      throw error;
    }
    return handle;
  }

  private handleFor(connection: Kernel.IKernelConnection, workspace: string): KernelHandle {
    return new KernelHandle(connection, workspace, {
      bridge: this.o.bridge,
      interruptGraceMs: this.o.interruptGraceMs,
      onCellRunning: (running) => this.cellRunning(running),
      remote: this.o.transport === "kernel",
    });
  }

  /**
   * Connects to a kernel that is already running on the server (a session's notebook started by
   * this instance before a restart, or by another instance). Null when the server no longer has
   * it, or it does not answer: the caller starts a new one. Never shuts a kernel down.
   */
  async reconnect(kernelId: string, workspace: string): Promise<KernelHandle | null> {
    const manager = this.manager;
    if (!manager || !this.settings) throw new Error("the kernel registry is not started");
    const model = await KernelAPI.getKernelModel(kernelId, this.settings).catch((error: unknown) => {
      throw explainJupyterError(error, this.settings?.baseUrl ?? "");
    });
    if (!model || model.execution_state === "dead") return null;
    const handle = this.handleFor(manager.connectTo({ model }), workspace);
    try {
      await handle.ready();
    } catch {
      if (!handle.connection.isDisposed) handle.connection.dispose();
      return null;
    }
    return handle;
  }

  /** Whether the server still runs this kernel (false: it was shut down or culled there). */
  async stillRunning(kernelId: string): Promise<boolean> {
    if (!this.settings) return false;
    const model = await KernelAPI.getKernelModel(kernelId, this.settings).catch((error: unknown) => {
      throw explainJupyterError(error, this.settings?.baseUrl ?? "");
    });
    return model !== undefined && model.execution_state !== "dead";
  }

  /**
   * When the server last saw the kernel do anything (any client's cells: with a shared Jupyter,
   * another Argus instance may be using it), and whether it is busy now; null when unknown.
   */
  async activityOf(kernelId: string): Promise<{ lastActivityMs: number | null; busy: boolean } | null> {
    if (!this.settings) return null;
    const model = await KernelAPI.getKernelModel(kernelId, this.settings).catch(() => undefined);
    if (!model) return null;
    const at = model.last_activity ? Date.parse(model.last_activity) : Number.NaN;
    return { lastActivityMs: Number.isFinite(at) ? at : null, busy: model.execution_state === "busy" };
  }

  /**
   * Interrupts a kernel through the server's REST API, without a websocket: a kernel busy with a
   * cell does not answer the kernel_info a new connection waits for until that cell ends.
   */
  async interruptById(kernelId: string): Promise<void> {
    if (!this.settings) return;
    await KernelAPI.interruptKernel(kernelId, this.settings).catch((error: unknown) => {
      throw explainJupyterError(error, this.settings?.baseUrl ?? "");
    });
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
      void this.startKernel(POOL_DIR)
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
   */
  async take(): Promise<{ kernel: KernelHandle; settle: () => void }> {
    const kernel = await this.reserveKernel();
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

  private async reserveKernel(): Promise<KernelHandle> {
    for (;;) {
      let handle: KernelHandle | undefined;
      while ((handle = this.pool.shift())) {
        if (!handle.lost) break;
        void handle.shutdown();
      }
      if (handle) return handle;
      if (this.liveCount() < this.o.maxKernels) {
        this.startingDirect++;
        try {
          return await this.startKernel(POOL_DIR);
        } finally {
          this.startingDirect--;
        }
      }
      if (this.starting === 0) {
        throw new ArgusError(
          "unavailable:jupyter",
          `Argus is already running as many notebooks as it may (${this.o.maxKernels}). Try again in a minute, or stop a run you no longer need.`,
        );
      }
      await new Promise<void>((resolve) => this.poolWaiters.push(resolve));
    }
  }

  /** A kernel lent out for one isolated job; it counts against the cap until `returnIsolated`. */
  async takeIsolated(): Promise<KernelHandle> {
    const { kernel, settle } = await this.take();
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
    this.manager?.dispose();
  }
}
