import { randomUUID } from "node:crypto";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { KernelAPI, KernelManager, ServerConnection, type Kernel } from "@jupyterlab/services";
import { explainJupyterError } from "./jupyter-errors";
import { onceMoreOnServerError } from "./jupyter-retry";
import { KernelHandle } from "./kernel-handle";
import type { BridgeMethods } from "./bridge";
import type { JupyterBackend } from "./jupyter-server";

export interface JupyterKernelsOptions {
  jupyter: JupyterBackend;
  /** Root the jupyter-server serves; session workspaces are its children, and new kernels start under it. */
  sessionsDir: string;
  kernelName: string;
  interruptGraceMs: number;
  bridge: BridgeMethods;
  /**
   * `kernel`: the kernel host has its own disk (ARGUS_WORKSPACE_TRANSPORT=kernel), so no
   * directory is made here and kernels start in the Jupyter server's root; the registry moves
   * each into its session's workspace there.
   */
  transport?: "shared" | "kernel";
  /** Told each kernel's id as soon as the server has started it (kernel-ledger.ts records it). */
  onStarted?: (kernelId: string) => void;
}

/** What a kernel request meets before the registry connected: Jupyter did not start (its log says why). */
const NOT_CONNECTED = "Jupyter did not start on this Argus server, so it cannot run notebook cells; the server's log says why.";

/**
 * The connection to a Jupyter server's kernels: starting one in a directory, connecting to one
 * already running, and asking the server about one by its id. Which kernels to start, and how
 * many, is the pool's (kernel-pool.ts).
 */
export class JupyterKernels {
  private manager: KernelManager | null = null;
  private settings: ServerConnection.ISettings | null = null;

  constructor(
    private readonly o: JupyterKernelsOptions,
    /** Told when a cell starts (true) or ends (false) in any kernel started or connected here. */
    private readonly onCellRunning: (running: boolean) => void,
  ) {}

  /** Connects to the server Jupyter runs now (again after it restarted). */
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
  }

  /** Starts a kernel in a fresh directory under `dir` (relative to the sessions root). */
  async startKernel(dir: string): Promise<KernelHandle> {
    const manager = this.manager;
    if (!manager) throw new Error(NOT_CONNECTED);
    const remote = this.o.transport === "kernel";
    const relative = path.join(dir, randomUUID());
    const workspace = path.join(this.o.sessionsDir, relative);
    let connection: Kernel.IKernelConnection;
    if (!remote) await mkdir(workspace, { recursive: true, mode: 0o700 });
    try {
      // jupyter-server's POST /api/kernels takes `path` (the kernel's cwd), which services'
      // typings omit; a remote kernel starts in the server's root and moves to its workspace.
      const model = (remote ? { name: this.o.kernelName } : { name: this.o.kernelName, path: relative }) as never;
      connection = await onceMoreOnServerError(() => manager.startNew(model));
    } catch (error) {
      throw explainJupyterError(error, this.settings?.baseUrl ?? "");
    }
    this.o.onStarted?.(connection.id);
    const handle = this.handleFor(connection, workspace);
    try {
      // Fails at once if the kernel dies while starting (see KernelHandle.ready).
      await handle.ready();
    } catch (error) {
      // services' KernelManager applies a kernel listing it requested before this kernel existed
      // when its answer comes after the start (seen under load): the new kernel is missing from
      // it, so its connection is told the kernel was shut down. The server is asked instead.
      const again = await this.reconnect(connection.id, workspace).catch(() => null);
      if (again) return again;
      await handle.shutdown();
      throw error;
    }
    return handle;
  }

  private handleFor(connection: Kernel.IKernelConnection, workspace: string): KernelHandle {
    return new KernelHandle(connection, workspace, {
      bridge: this.o.bridge,
      interruptGraceMs: this.o.interruptGraceMs,
      onCellRunning: this.onCellRunning,
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
    if (!manager || !this.settings) throw new Error(NOT_CONNECTED);
    const settings = this.settings;
    const model = await onceMoreOnServerError(() => KernelAPI.getKernelModel(kernelId, settings)).catch((error: unknown) => {
      throw explainJupyterError(error, settings.baseUrl);
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
    const settings = this.settings;
    if (!settings) return false;
    const model = await onceMoreOnServerError(() => KernelAPI.getKernelModel(kernelId, settings)).catch((error: unknown) => {
      throw explainJupyterError(error, settings.baseUrl);
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
    const settings = this.settings;
    if (!settings) return;
    await onceMoreOnServerError(() => KernelAPI.interruptKernel(kernelId, settings)).catch((error: unknown) => {
      throw explainJupyterError(error, settings.baseUrl);
    });
  }

  /** Shuts a kernel down by its id, without connecting to it; one the server no longer has is done already. */
  async shutdownById(kernelId: string): Promise<void> {
    const settings = this.settings;
    if (!settings) throw new Error(NOT_CONNECTED);
    if (!(await this.stillRunning(kernelId))) return;
    await onceMoreOnServerError(() => KernelAPI.shutdownKernel(kernelId, settings)).catch((error: unknown) => {
      throw explainJupyterError(error, settings.baseUrl);
    });
  }

  /** After every kernel is shut down: disposing the manager earlier would cut their connections. */
  dispose(): void {
    this.manager?.dispose();
  }
}
