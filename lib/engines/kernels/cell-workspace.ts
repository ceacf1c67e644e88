import { workspaceUsage } from "@/lib/engines/files/workspace-tree";
import type { Execution } from "@/lib/foundation/protocol/contexts";
import type { KernelHandle } from "./kernel-handle";
import type { RegistryOptions } from "./registry-options";
import { overQuota, withQuotaError } from "./workspace-quota";

/** Entries the quota walk on the kernel host counts at most (workspace-tree.ts bounds its walk likewise). */
const QUOTA_MAX_ENTRIES = 100_000;

/**
 * A session's workspace around its cells: the uploads a remote kernel lacks are delivered before
 * a cell (transport `kernel`), and the disk the workspace holds is measured after it.
 */
export class CellWorkspace {
  /** Uploads already in each remote kernel's workspace (transport `kernel`), by name and sha256. */
  private readonly delivered = new WeakMap<KernelHandle, Set<string>>();

  constructor(private readonly o: Pick<RegistryOptions, "uploads" | "workspaceMaxBytes" | "log">) {}

  /**
   * Transport `kernel`: copies the session's uploads the kernel's workspace lacks into it, through
   * the kernel. Each is sent once per kernel; the kernel side's manifest says what an existing
   * (reconnected) workspace already holds.
   */
  async deliverUploads(sessionId: string, kernel: KernelHandle): Promise<void> {
    if (!kernel.files || !this.o.uploads) return;
    const sent = this.delivered.get(kernel) ?? new Set<string>();
    this.delivered.set(kernel, sent);
    const pending = (await this.o.uploads(sessionId)).filter((u) => !sent.has(`${u.name}\u0000${u.sha256}`));
    if (!pending.length) return;
    const missing = new Set(await kernel.files.missing(Object.fromEntries(pending.map((u) => [u.name, u.sha256]))));
    for (const upload of pending) {
      if (missing.has(upload.name)) await kernel.files.push(upload.name, await upload.bytes());
      sent.add(`${upload.name}\u0000${upload.sha256}`);
    }
  }

  /** The cell's execution, with the quota error added when the workspace is now over its limit. */
  async checkQuota(kernel: KernelHandle, execution: Execution): Promise<Execution> {
    const max = this.o.workspaceMaxBytes;
    if (max === undefined || kernel.lost) return execution;
    try {
      const usage = kernel.files ? await kernel.files.usage(QUOTA_MAX_ENTRIES) : await workspaceUsage(kernel.workspace);
      return overQuota(usage, max) ? withQuotaError(execution, usage, max) : execution;
    } catch (error) {
      this.o.log?.(`[kernels] could not measure a workspace: ${String(error)}`);
      return execution;
    }
  }
}
