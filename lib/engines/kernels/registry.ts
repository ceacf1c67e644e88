import path from "node:path";
import type { Execution } from "@/lib/foundation/protocol/contexts";
import { workspaceLock } from "@/lib/foundation/common/workspace";
import { CellWorkspace } from "./cell-workspace";
import { IsolatedKernels } from "./isolated-kernels";
import type { ExecuteOptions, KernelHandle } from "./kernel-handle";
import { KernelPool } from "./kernel-pool";
import { withWaits } from "./kernel-wait";
import type { RegistryOptions } from "./registry-options";
import { evictedForRoom, idleLongestFirst } from "./idle-sessions";
import { KERNEL_GONE, kernelStopped } from "./reset-reasons";
import { adoptWorkspace } from "./workspace";
import { untilAborted } from "./until-aborted";

export type { RecordedCell, RegistryOptions, SessionKernelIds, SessionUpload } from "./registry-options";

/** A held kernel idle longer than this is checked on the server before use (servers cull idle kernels). */
const RECHECK_IDLE_MS = 60_000;
const DEFAULT_YIELD_IDLE_MS = 120_000;

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
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
  private readonly workspaces: CellWorkspace;
  private readonly throwaway: IsolatedKernels;

  constructor(private readonly o: RegistryOptions) {
    this.kernels = new KernelPool({ ...o, sessionKernels: () => this.sessions.size, makeRoom: () => this.makeRoom(), onStarted: (id) => o.ledger?.add(id) });
    this.workspaces = new CellWorkspace(o);
    this.throwaway = new IsolatedKernels(this.kernels, this.workspaces, (id) => this.sessionDir(id), o.log);
  }

  async start(): Promise<void> {
    this.kernels.connect();
    this.o.jupyter.onRestart?.(() => void this.jupyterRestarted());
    this.reaper = setInterval(() => void this.reap(), Math.min(60_000, Math.max(1000, this.o.idleMs / 4)));
    this.reaper.unref();
    this.kernels.fill();
    // What an earlier run of this instance left on a shared Jupyter (kernel-ledger.ts).
    void this.o.ledger
      ?.reclaim({ holder: (id) => this.o.kernelIds?.holder(id) ?? Promise.resolve(null), shutdown: (id) => this.kernels.shutdownById(id), log: this.o.log })
      .catch((e: unknown) => this.o.log?.(`[kernels] could not reclaim the kernels this instance left behind (tried again at its next start): ${errorText(e)}`));
  }

  stats(): { pooled: number; live: number; starting: number } {
    const { pooled, starting } = this.kernels.stats();
    return { pooled, live: this.sessions.size, starting };
  }

  sessionDir(sessionId: string): string {
    return path.join(this.o.sessionsDir, sessionId);
  }

  /**
   * The session's live kernel: the one this process holds, else the one the database names if
   * the Jupyter server still runs it (notebook state intact), else a new one, with a note in the
   * chat when an earlier notebook was lost.
   */
  acquire(sessionId: string): Promise<{ kernel: KernelHandle; fresh: boolean; resetReason: string | null }> {
    return this.o.locks.run(workspaceLock(sessionId), async () => {
      const current = this.sessions.get(sessionId);
      // A kernel idle for a while may have been culled on the server, and a socket that is not
      // connected may belong to one shut down there; services notices either only at its next
      // poll of the server's kernels (~10 s). Ask the server rather than send a cell into it.
      const doubtful = current && !current.lost && (current.connection.connectionStatus !== "connected" || Date.now() - current.lastUsed > RECHECK_IDLE_MS);
      if (current && doubtful && !(await this.kernels.stillRunning(current.id))) {
        current.markLost("It is no longer running on the Jupyter server");
      }
      if (current && !current.lost) {
        current.lastUsed = Date.now();
        return { kernel: current, fresh: false, resetReason: null };
      }
      if (current) {
        // It died between cells (a cell that killed it says so itself, and is gone from the map).
        if (!this.resetReasons.has(sessionId)) this.resetReasons.set(sessionId, kernelStopped(current.lost));
        this.sessions.delete(sessionId);
        void current.shutdown();
        await this.forgetKernel(sessionId, current.id);
      } else {
        const found = await this.reconnectStored(sessionId);
        if (found) return { kernel: found, fresh: false, resetReason: null };
      }
      const { kernel, settle } = await withWaits(this.o.onWait, sessionId, (began) => this.kernels.take(began));
      try {
        if (kernel.files) await kernel.files.enter(sessionId);
        else await adoptWorkspace(kernel.workspace, this.sessionDir(sessionId));
      } catch (error) {
        settle();
        void kernel.shutdown();
        throw error;
      }
      kernel.workspace = this.sessionDir(sessionId);
      this.sessions.set(sessionId, kernel);
      settle();
      await this.o.kernelIds?.set(sessionId, kernel.id);
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

  /** The session's kernel named in the database, if the server still runs it; else the reason it is gone is noted. */
  private async reconnectStored(sessionId: string): Promise<KernelHandle | null> {
    const stored = (await this.o.kernelIds?.get(sessionId)) ?? null;
    if (stored === null) return null;
    const kernel = await this.kernels.reconnect(stored, this.sessionDir(sessionId));
    if (!kernel) {
      if (!this.resetReasons.has(sessionId)) this.resetReasons.set(sessionId, KERNEL_GONE);
      await this.forgetKernel(sessionId, stored);
      return null;
    }
    this.o.log?.(`[kernels] session ${sessionId} reconnected to its running kernel ${stored}`);
    this.sessions.set(sessionId, kernel);
    return kernel;
  }

  private async forgetKernel(sessionId: string, kernelId: string): Promise<void> {
    await this.o.kernelIds?.clear(sessionId, kernelId).catch((error: unknown) => this.o.log?.(`[kernels] could not forget a kernel id: ${String(error)}`));
  }

  /** Runs a cell in the session's kernel and records it for the notebook export. */
  async execute(sessionId: string, code: string, options: Partial<ExecuteOptions> = {}): Promise<Execution> {
    // A cancel must not wait for a cold kernel start; the kernel still attaches.
    const acquired = await untilAborted(this.acquire(sessionId), options.signal);
    if (!acquired) {
      return { results: [], stdout: "", stderr: "", error: { name: "Cancelled", value: "The run was cancelled before this cell started.", traceback: "Cancelled" } };
    }
    const { kernel } = acquired;
    const transferFailed = await this.workspaces.deliverUploads(sessionId, kernel).then(
      () => null,
      (error: unknown) => error,
    );
    if (transferFailed !== null) {
      return { results: [], stdout: "", stderr: "", error: { name: "WorkspaceTransferError", value: `The uploads could not be copied into the kernel's workspace: ${errorText(transferFailed)}`, traceback: "WorkspaceTransferError" } };
    }
    const outcome = await kernel.execute(code, { timeoutMs: this.o.cellTimeoutMs, ...options });
    outcome.execution = await this.workspaces.checkQuota(kernel, outcome.execution);
    // Awaited, so a session's cells are recorded in the order they ran.
    await this.o.onCell?.(sessionId, { kernelId: kernel.id, code, execution: outcome.execution, executionCount: outcome.executionCount });
    if (outcome.kernelLost && this.sessions.get(sessionId) === kernel) {
      // The Execution already says the state is gone; start the replacement now
      // so the next cell does not wait for it.
      this.sessions.delete(sessionId);
      void kernel.shutdown();
      // Forgotten first: Jupyter may bring a dead kernel back under the same id, empty.
      void this.forgetKernel(sessionId, kernel.id)
        .then(() => this.acquire(sessionId))
        .catch((e: unknown) => this.o.log?.(`[kernels] replacement failed: ${String(e)}`));
    }
    return outcome.execution;
  }

  /**
   * A fresh kernel that sees copies of the session's files, for the coder's
   * tests: never the planner's notebook, and disposed of afterwards.
   */
  isolated<T>(sessionId: string | null, fn: (kernel: KernelHandle) => Promise<T>): Promise<T> {
    return this.throwaway.run(sessionId, () => withWaits(this.o.onWait, sessionId, (began) => this.kernels.takeIsolated(began)), fn);
  }

  /**
   * A run taken over from an instance that died may have left a cell running in the session's
   * kernel on a shared Jupyter: interrupt it, so the session's next cell does not queue behind
   * the dead run's work. (ipykernel ignores an interrupt while idle.)
   */
  async interruptAbandonedCell(sessionId: string): Promise<void> {
    // Not through a connection: a new one waits for kernel_info, which a busy kernel answers only
    // once its cell ends. The server's REST interrupt reaches it at once.
    const kernelId = this.sessions.get(sessionId)?.id ?? (await this.o.kernelIds?.get(sessionId)) ?? null;
    if (kernelId === null) return;
    this.o.log?.(`[kernels] interrupting whatever the dead run left running in session ${sessionId}'s kernel ${kernelId}`);
    await this.kernels.interruptById(kernelId).catch((error: unknown) => this.o.log?.(`[kernels] could not interrupt kernel ${kernelId}: ${errorText(error)}`));
  }

  /** Shuts a session's kernel down (the session was deleted). */
  async release(sessionId: string): Promise<void> {
    let kernel = this.sessions.get(sessionId) ?? null;
    this.sessions.delete(sessionId);
    this.resetReasons.delete(sessionId);
    if (!kernel) {
      // Started by another instance, or by this one before a restart: it is still this session's.
      const stored = (await this.o.kernelIds?.get(sessionId)) ?? null;
      if (stored !== null) {
        kernel = await this.kernels.reconnect(stored, this.sessionDir(sessionId)).catch(() => null);
        if (!kernel) await this.forgetKernel(sessionId, stored);
      }
    }
    if (kernel?.files && !kernel.lost) await kernel.files.discard().catch(() => undefined);
    await kernel?.shutdown();
    if (kernel) await this.forgetKernel(sessionId, kernel.id);
    this.kernels.fill();
  }

  has(sessionId: string): boolean {
    return this.sessions.has(sessionId);
  }

  /**
   * Shuts down session kernels idle for longer than the limit: idle here, and idle on the Jupyter
   * server too. With a shared Jupyter another instance may have taken the session's later runs
   * into the same kernel, and this instance's own last use says nothing about those.
   */
  async reap(now = Date.now()): Promise<string[]> {
    const minutes = Math.round(this.o.idleMs / 60_000);
    const why = minutes >= 1 ? `it was idle for ${minutes} minutes and was shut down to free memory` : "it was idle and was shut down to free memory";
    const reaped: string[] = [];
    for (const sessionId of [...this.sessions.keys()]) {
      if (await this.shutDownIdle(sessionId, now, this.o.idleMs, why)) reaped.push(sessionId);
    }
    return reaped;
  }

  /** At the cap: the session kernel idle longest (and long enough) gives its place; false if none may. */
  private async makeRoom(): Promise<boolean> {
    const now = Date.now();
    const minIdle = this.o.yieldIdleMs ?? DEFAULT_YIELD_IDLE_MS;
    const uses = [...this.sessions].map(([sessionId, k]) => ({ sessionId, lastUsed: k.lastUsed, busy: k.isBusy }));
    for (const sessionId of idleLongestFirst(uses, now, minIdle)) {
      if (await this.shutDownIdle(sessionId, now, minIdle, evictedForRoom(this.o.maxKernels))) return true;
    }
    return false;
  }

  private async shutDownIdle(sessionId: string, now: number, minIdleMs: number, why: string): Promise<boolean> {
    const kernel = this.sessions.get(sessionId);
    if (!kernel || kernel.isBusy || now - kernel.lastUsed < minIdleMs) return false;
    const seen = await this.kernels.activityOf(kernel.id);
    if (seen && (seen.busy || (seen.lastActivityMs !== null && now - seen.lastActivityMs < minIdleMs))) return false;
    // Used while we asked the server (acquire stamps lastUsed before it hands the kernel out): it stays.
    if (this.sessions.get(sessionId) !== kernel || kernel.isBusy || now - kernel.lastUsed < minIdleMs) return false;
    this.sessions.delete(sessionId);
    this.resetReasons.set(sessionId, why);
    this.o.log?.(`[kernels] session ${sessionId}'s kernel shut down: ${why}`);
    await kernel.shutdown();
    await this.forgetKernel(sessionId, kernel.id);
    return true;
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
    const pooled = this.kernels.drain();
    const held = [...this.sessions.values()];
    this.sessions.clear();
    const kept = this.o.keepSessionKernelsOnClose ? held : [];
    for (const k of kept) k.detach();
    const stopped = [...pooled, ...(this.o.keepSessionKernelsOnClose ? [] : held)];
    await Promise.all([...stopped.map((k) => k.shutdown()), this.throwaway.retired()]);
    this.kernels.dispose();
  }
}
