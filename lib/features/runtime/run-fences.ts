import type { RunFence } from "@/lib/engines/db/run-leases";

/**
 * The leases this instance's runs write under, by run: the event log asks here which lease an
 * event of a run is appended under (lib/engines/db/events.ts checks it in the append's transaction), and
 * tells here when the database refused one because another instance took the run over. The run
 * router holds a fence from the moment it takes a run's lease until the run has left this process
 * (even after a renewal found the lease gone: every write that run still tries must be refused);
 * a run started without the router (tests, tools) has none and writes unfenced.
 */
export class RunFences {
  private readonly byRun = new Map<string, RunFence>();
  private readonly refusalListeners = new Set<(fence: RunFence) => void>();

  hold(fence: RunFence): void {
    this.byRun.set(fence.runId, fence);
  }

  /** The lease the run's writes in `sessionId` are made under, or null (unfenced). */
  of(sessionId: string, runId: string): RunFence | null {
    const fence = this.byRun.get(runId);
    return fence && fence.sessionId === sessionId ? fence : null;
  }

  /** The run left this process: later writes under its id (none are expected) are unfenced. */
  drop(runId: string): void {
    this.byRun.delete(runId);
  }

  /** The database refused a write under `fence`: the run must stop here without writing more. */
  refused(fence: RunFence): void {
    if (this.byRun.get(fence.runId) !== fence) return;
    for (const listener of this.refusalListeners) listener(fence);
  }

  /** Registers a listener for refused writes; returns a function that removes it. */
  onRefused(listener: (fence: RunFence) => void): () => void {
    this.refusalListeners.add(listener);
    return () => this.refusalListeners.delete(listener);
  }
}
