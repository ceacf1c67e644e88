import { randomUUID } from "node:crypto";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { KernelManager, ServerConnection, type Kernel } from "@jupyterlab/services";
import { ArgusError } from "@/lib/errors";
import type { Execution } from "@/lib/protocol/contexts";
import type { KeyedMutex } from "@/lib/server/keyed-mutex";
import { workspaceLock } from "@/lib/sessions/workspace-lock";
import type { BridgeMethods } from "./bridge";
import type { JupyterBackend } from "./jupyter-server";
import { KernelHandle, type ExecuteOptions } from "./kernel-handle";
import { adoptWorkspace, copyWorkspaceFiles, removeDir } from "./workspace";
import { overQuota, withQuotaError } from "./workspace-quota";
import { workspaceUsage } from "@/lib/files/workspace-tree";

export interface RecordedCell {
  kernelId: string;
  code: string;
  execution: Execution;
  executionCount: number | null;
}

export interface RegistryOptions {
  jupyter: JupyterBackend;
  /** Root the jupyter-server serves; session workspaces are its children. */
  sessionsDir: string;
  kernelName: string;
  poolSize: number;
  /** Live kernels at most (sessions', isolated, pooled and starting): a cap on what model-written code can hold. */
  maxKernels: number;
  idleMs: number;
  cellTimeoutMs: number;
  /** Disk a session's workspace may hold, checked after each cell (see workspace-quota.ts). */
  workspaceMaxBytes?: number;
  interruptGraceMs: number;
  locks: KeyedMutex;
  bridge: BridgeMethods;
  /** Tells the chat something about the session's notebook (reset, restart). */
  onNotice?: (sessionId: string, text: string) => void;
  /** Every cell run in a session's kernel, for the notebook export. */
  onCell?: (sessionId: string, cell: RecordedCell) => void;
  log?: (line: string) => void;
}

/** Pooled kernels wait in `<sessions>/_pool/<uuid>` until a session adopts one. */
const POOL_DIR = "_pool";

/**
 * One live kernel per session (the planner's notebook, kept across runs and
 * pauses), short-lived isolated kernels for the coder's tests, and a pool of
 * kernels started ahead so that neither waits for a cold start. Kernels that
 * idle too long are shut down; dead ones are replaced; the chat is told
 * whenever a session's notebook state was lost.
 */
export class KernelRegistry {
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
  private readonly sessions = new Map<string, KernelHandle>();
  private readonly resetReasons = new Map<string, string>();
  private reaper: NodeJS.Timeout | null = null;
  private closed = false;
  private generation = 0;

  constructor(private readonly o: RegistryOptions) {}

  async start(): Promise<void> {
    this.connect();
    this.o.jupyter.onRestart?.(() => void this.jupyterRestarted());
    this.reaper = setInterval(() => void this.reap(), Math.min(60_000, Math.max(1000, this.o.idleMs / 4)));
    this.reaper.unref();
    this.fillPool();
  }

  private connect(): void {
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
    this.generation++;
  }

  /** Every kernel that exists or is being started. */
  private liveCount(): number {
    return this.pool.length + this.starting + this.startingDirect + this.inHand + this.sessions.size + this.lentIsolated;
  }

  private wakePoolWaiters(): void {
    for (const wake of this.poolWaiters.splice(0)) wake();
  }

  stats(): { pooled: number; live: number; starting: number } {
    return { pooled: this.pool.length, live: this.sessions.size, starting: this.starting };
  }

  /** Starts a kernel in a fresh directory under `dir` (relative to the sessions root). */
  private async startKernel(dir: string): Promise<KernelHandle> {
    const manager = this.manager;
    if (!manager) throw new Error("the kernel registry is not started");
    const relative = path.join(dir, randomUUID());
    const workspace = path.join(this.o.sessionsDir, relative);
    await mkdir(workspace, { recursive: true, mode: 0o700 });
    // jupyter-server's POST /api/kernels takes `path` (the kernel's cwd), which
    // services' typings omit.
    const connection: Kernel.IKernelConnection = await manager.startNew({ name: this.o.kernelName, path: relative } as never);
    try {
      await connection.info;
    } catch (error) {
      connection.dispose();
      throw error;
    }
    return new KernelHandle(connection, workspace, {
      bridge: this.o.bridge,
      interruptGraceMs: this.o.interruptGraceMs,
    });
  }

  private fillPool(): void {
    if (this.closed) return;
    const generation = this.generation;
    while (this.pool.length + this.starting < this.o.poolSize && this.liveCount() < this.o.maxKernels) {
      this.starting++;
      void this.startKernel(POOL_DIR)
        .then((handle) => {
          if (this.closed || generation !== this.generation) return void handle.shutdown();
          this.pool.push(handle);
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
  private async takeKernel(): Promise<{ kernel: KernelHandle; settle: () => void }> {
    const kernel = await this.reserveKernel();
    this.inHand++;
    let settled = false;
    this.fillPool();
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

  sessionDir(sessionId: string): string {
    return path.join(this.o.sessionsDir, sessionId);
  }

  /** The session's live kernel, started (or replaced) if it has none. */
  acquire(sessionId: string): Promise<{ kernel: KernelHandle; fresh: boolean; resetReason: string | null }> {
    return this.o.locks.run(workspaceLock(sessionId), async () => {
      const current = this.sessions.get(sessionId);
      if (current && !current.lost) {
        current.lastUsed = Date.now();
        return { kernel: current, fresh: false, resetReason: null };
      }
      if (current) {
        this.sessions.delete(sessionId);
        void current.shutdown();
      }
      const { kernel, settle } = await this.takeKernel();
      try {
        await adoptWorkspace(kernel.workspace, this.sessionDir(sessionId));
      } catch (error) {
        settle();
        void kernel.shutdown();
        throw error;
      }
      kernel.workspace = this.sessionDir(sessionId);
      this.sessions.set(sessionId, kernel);
      settle();
      const resetReason = this.resetReasons.get(sessionId) ?? null;
      this.resetReasons.delete(sessionId);
      if (resetReason) {
        this.o.onNotice?.(
          sessionId,
          `The notebook was reset because ${resetReason}. Variables from earlier cells are gone; files in the workspace are kept.`,
        );
      }
      return { kernel, fresh: true, resetReason };
    });
  }

  /** Runs a cell in the session's kernel and records it for the notebook export. */
  async execute(sessionId: string, code: string, options: Partial<ExecuteOptions> = {}): Promise<Execution> {
    // A cancel must not wait for a cold kernel start; the kernel still attaches.
    const acquired = await untilAborted(this.acquire(sessionId), options.signal);
    if (!acquired) {
      return { results: [], stdout: "", stderr: "", error: { name: "Cancelled", value: "The run was cancelled before this cell started.", traceback: "Cancelled" } };
    }
    const { kernel } = acquired;
    const outcome = await kernel.execute(code, { timeoutMs: this.o.cellTimeoutMs, ...options });
    outcome.execution = await this.checkQuota(kernel.workspace, outcome.execution);
    this.o.onCell?.(sessionId, { kernelId: kernel.id, code, execution: outcome.execution, executionCount: outcome.executionCount });
    if (outcome.kernelLost && this.sessions.get(sessionId) === kernel) {
      // The Execution already says the state is gone; start the replacement now
      // so the next cell does not wait for it.
      this.sessions.delete(sessionId);
      void kernel.shutdown();
      void this.acquire(sessionId).catch((e: unknown) => this.o.log?.(`[kernels] replacement failed: ${String(e)}`));
    }
    return outcome.execution;
  }

  private async checkQuota(workspace: string, execution: Execution): Promise<Execution> {
    const max = this.o.workspaceMaxBytes;
    if (max === undefined) return execution;
    try {
      const usage = await workspaceUsage(workspace);
      return overQuota(usage, max) ? withQuotaError(execution, usage, max) : execution;
    } catch (error) {
      this.o.log?.(`[kernels] could not measure a workspace: ${String(error)}`);
      return execution;
    }
  }

  /**
   * A fresh kernel that sees copies of the session's files, for the coder's
   * tests: never the planner's notebook, and disposed of afterwards.
   */
  async isolated<T>(sessionId: string | null, fn: (kernel: KernelHandle) => Promise<T>): Promise<T> {
    const { kernel, settle } = await this.takeKernel();
    this.lentIsolated++;
    settle();
    try {
      if (sessionId) await copyWorkspaceFiles(this.sessionDir(sessionId), kernel.workspace);
      return await fn(kernel);
    } finally {
      await kernel.shutdown();
      this.lentIsolated--;
      this.wakePoolWaiters();
      this.fillPool();
      await removeDir(kernel.workspace);
    }
  }

  /** Shuts a session's kernel down (the session was deleted). */
  async release(sessionId: string): Promise<void> {
    const kernel = this.sessions.get(sessionId);
    this.sessions.delete(sessionId);
    this.resetReasons.delete(sessionId);
    await kernel?.shutdown();
    this.fillPool();
  }

  has(sessionId: string): boolean {
    return this.sessions.has(sessionId);
  }

  /** Shuts down session kernels idle for longer than the limit. */
  async reap(now = Date.now()): Promise<string[]> {
    const reaped: string[] = [];
    for (const [sessionId, kernel] of this.sessions) {
      if (kernel.isBusy || now - kernel.lastUsed < this.o.idleMs) continue;
      this.sessions.delete(sessionId);
      const minutes = Math.round(this.o.idleMs / 60_000);
      this.resetReasons.set(
        sessionId,
        minutes >= 1 ? `it was idle for ${minutes} minutes and was shut down to free memory` : "it was idle and was shut down to free memory",
      );
      reaped.push(sessionId);
      await kernel.shutdown();
    }
    return reaped;
  }

  /** jupyter-server came back after dying: every kernel is gone, start over. */
  private async jupyterRestarted(): Promise<void> {
    if (this.closed) return;
    this.o.log?.("[kernels] jupyter-server restarted: replacing every kernel");
    const live = [...this.sessions.entries()];
    for (const k of this.pool) k.markLost("Jupyter restarted");
    for (const [, k] of live) k.markLost("Jupyter restarted");
    this.pool = [];
    this.sessions.clear();
    this.connect();
    this.fillPool();
    for (const [sessionId] of live) {
      this.resetReasons.set(sessionId, "the Jupyter server stopped unexpectedly and was restarted");
      void this.acquire(sessionId).catch((e: unknown) => this.o.log?.(`[kernels] could not replace a kernel: ${String(e)}`));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reaper) clearInterval(this.reaper);
    const all = [...this.pool, ...this.sessions.values()];
    this.pool = [];
    this.sessions.clear();
    await Promise.all(all.map((k) => k.shutdown()));
    this.manager?.dispose();
  }
}

/** Resolves with the promise's value, or null as soon as the signal aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T | null> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.resolve(null);
  return new Promise<T | null>((resolve, reject) => {
    const onAbort = () => resolve(null);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
