import { randomUUID } from "node:crypto";
import type { CellWorkspace } from "./cell-workspace";
import type { KernelHandle } from "./kernel-handle";
import type { KernelPool } from "./kernel-pool";
import { copyWorkspaceFiles, removeDir } from "./workspace";

/**
 * Throwaway kernels for one job each (the coder's tests): fresh, seeing copies of the session's
 * files, shut down afterwards. Each counts against the cap until it has stopped.
 */
export class IsolatedKernels {
  /** Kernels being shut down after their job; the registry's close waits for them. */
  private readonly retiring = new Set<Promise<void>>();

  constructor(
    private readonly kernels: KernelPool,
    private readonly workspaces: CellWorkspace,
    private readonly sessionDir: (sessionId: string) => string,
    private readonly log?: (line: string) => void,
  ) {}

  /** `take` lends a kernel from the pool (the registry tells the chat what it waits for). */
  async run<T>(sessionId: string | null, take: () => Promise<KernelHandle>, fn: (kernel: KernelHandle) => Promise<T>): Promise<T> {
    const kernel = await take();
    try {
      if (kernel.files) {
        // Its own workspace on the kernel host, with the session's uploads (the planner's own
        // files stay in the planner's workspace: they cannot be copied without reading it here).
        await kernel.files.enter(`isolated-${randomUUID()}`);
        if (sessionId) await this.workspaces.deliverUploads(sessionId, kernel);
      } else if (sessionId) await copyWorkspaceFiles(this.sessionDir(sessionId), kernel.workspace);
      return await fn(kernel);
    } finally {
      // Off the caller's path: the coder's result does not wait for a kernel to
      // stop. Its place under the cap is given back only once it has.
      this.retire(kernel);
    }
  }

  /** Settles when every kernel retired so far has stopped. */
  retired(): Promise<void> {
    return Promise.all([...this.retiring]).then(() => undefined);
  }

  private retire(kernel: KernelHandle): void {
    const remote = kernel.files;
    const done = (remote ? remote.discard().catch(() => undefined) : Promise.resolve())
      .then(() => kernel.shutdown())
      .then(() => (remote ? undefined : removeDir(kernel.workspace)))
      .catch((error: unknown) => this.log?.(`[kernels] could not clean up an isolated kernel: ${String(error)}`))
      .finally(() => {
        this.retiring.delete(done);
        this.kernels.returnIsolated();
      });
    this.retiring.add(done);
  }
}
