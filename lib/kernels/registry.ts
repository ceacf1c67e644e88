import path from "node:path";
import { workspaceUsage } from "@/lib/files/workspace-tree";
import type { Execution } from "@/lib/protocol/contexts";
import type { KeyedMutex } from "@/lib/server/keyed-mutex";
import { workspaceLock } from "@/lib/sessions/workspace-lock";
import type { ExecuteOptions, KernelHandle } from "./kernel-handle";
import { KernelPool, type KernelPoolOptions } from "./kernel-pool";
import { adoptWorkspace, copyWorkspaceFiles, removeDir } from "./workspace";
import { untilAborted } from "./until-aborted";
import { overQuota, withQuotaError } from "./workspace-quota";

interface RecordedCell {
  kernelId: string;
  code: string;
  execution: Execution;
  executionCount: number | null;
}

export interface RegistryOptions extends Omit<KernelPoolOptions, "sessionKernels"> {
  idleMs: number;
  cellTimeoutMs: number;
  /** Disk a session's workspace may hold, checked after each cell (see workspace-quota.ts). */
  workspaceMaxBytes?: number;
  locks: KeyedMutex;
  /** Tells the chat something about the session's notebook (reset, restart). */
  onNotice?: (sessionId: string, text: string) => void;
  /** Every cell run in a session's kernel, for the notebook export. */
  onCell?: (sessionId: string, cell: RecordedCell) => void | Promise<void>;
}

/**
 * One live kernel per session (the planner's notebook, kept across runs and
 * pauses), short-lived isolated kernels for the coder's tests, and a pool of
 * kernels started ahead so that neither waits for a cold start (kernel-pool.ts).
 * Kernels that idle too long are shut down; dead ones are replaced; the chat
 * is told whenever a session's notebook state was lost.
 */
export class KernelRegistry {
  private readonly kernels: KernelPool;
  private readonly sessions = new Map<string, KernelHandle>();
  private readonly resetReasons = new Map<string, string>();
  private reaper: NodeJS.Timeout | null = null;
  private closed = false;
  /** Isolated kernels being shut down after their job; `close` waits for them. */
  private readonly retiring = new Set<Promise<void>>();

  constructor(private readonly o: RegistryOptions) {
    this.kernels = new KernelPool({ ...o, sessionKernels: () => this.sessions.size });
  }

  async start(): Promise<void> {
    this.kernels.connect();
    this.o.jupyter.onRestart?.(() => void this.jupyterRestarted());
    this.reaper = setInterval(() => void this.reap(), Math.min(60_000, Math.max(1000, this.o.idleMs / 4)));
    this.reaper.unref();
    this.kernels.fill();
  }

  stats(): { pooled: number; live: number; starting: number } {
    const { pooled, starting } = this.kernels.stats();
    return { pooled, live: this.sessions.size, starting };
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
      const { kernel, settle } = await this.kernels.take();
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
    // Awaited, so a session's cells are recorded in the order they ran.
    await this.o.onCell?.(sessionId, { kernelId: kernel.id, code, execution: outcome.execution, executionCount: outcome.executionCount });
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
    const kernel = await this.kernels.takeIsolated();
    try {
      if (sessionId) await copyWorkspaceFiles(this.sessionDir(sessionId), kernel.workspace);
      return await fn(kernel);
    } finally {
      // Off the caller's path: the coder's result does not wait for a kernel to
      // stop. Its place under the cap is given back only once it has.
      this.retire(kernel);
    }
  }

  private retire(kernel: KernelHandle): void {
    const done = kernel
      .shutdown()
      .then(() => removeDir(kernel.workspace))
      .catch((error: unknown) => this.o.log?.(`[kernels] could not clean up an isolated kernel: ${String(error)}`))
      .finally(() => {
        this.retiring.delete(done);
        this.kernels.returnIsolated();
      });
    this.retiring.add(done);
  }

  /** Shuts a session's kernel down (the session was deleted). */
  async release(sessionId: string): Promise<void> {
    const kernel = this.sessions.get(sessionId);
    this.sessions.delete(sessionId);
    this.resetReasons.delete(sessionId);
    await kernel?.shutdown();
    this.kernels.fill();
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
    this.kernels.dropPooled("Jupyter restarted");
    for (const [, k] of live) k.markLost("Jupyter restarted");
    this.sessions.clear();
    this.kernels.connect();
    this.kernels.fill();
    for (const [sessionId] of live) {
      this.resetReasons.set(sessionId, "the Jupyter server stopped unexpectedly and was restarted");
      void this.acquire(sessionId).catch((e: unknown) => this.o.log?.(`[kernels] could not replace a kernel: ${String(e)}`));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reaper) clearInterval(this.reaper);
    const all = [...this.kernels.drain(), ...this.sessions.values()];
    this.sessions.clear();
    await Promise.all([...all.map((k) => k.shutdown()), ...this.retiring]);
    this.kernels.dispose();
  }
}
