import type { Db } from "@/lib/engines/db/database";
import { cellsOfSession } from "@/lib/engines/db/cells";
import type { BridgeMeter } from "@/lib/engines/kernels/bridge-meter";
import type { KernelRegistry } from "@/lib/engines/kernels/registry";
import { sumUsage, toLlmMetrics, ZERO_USAGE } from "@/lib/engines/llm/usage";
import { errorNote, redoMark } from "@/lib/foundation/protocol/event-builders";
import type { EventLog } from "./event-log";
import { notebookCellsToReplay } from "./redo-log";

/**
 * Before a run is continued: the session's notebook kernel is reused if it is the one that ran
 * the recorded cells; if that kernel is gone (it died, or Argus restarted without it), the cells
 * the agents still see are run again in the new one, and the chat says so. Returns how many
 * cells were run again. Never throws: a rebuild that fails is said in the chat and the run goes
 * on (its next cell meets the notebook as it is, and says what is missing).
 *
 * The cells run again are the run's work like any other: their calls to model-backed tools are
 * admitted against the run's budgets (`meter`: the run's own, per cell) and what they spend is put on the chat's mark,
 * where it counts in the run's metrics; the caller counts the rebuild's time in the run's clock.
 */
export async function rebuildNotebookIfLost(
  deps: { db: Db; events: EventLog; kernels: KernelRegistry | null },
  at: { sessionId: string; runId: string; signal: AbortSignal; meter?: () => BridgeMeter },
): Promise<number> {
  try {
    return await rebuild(deps, at);
  } catch (error) {
    const text = `The notebook could not be rebuilt: ${error instanceof Error ? error.message : String(error)}`;
    await deps.events.append(at.sessionId, errorNote(text, "KERNEL_RESET", { runId: at.runId }));
    return 0;
  }
}

async function rebuild(
  deps: { db: Db; events: EventLog; kernels: KernelRegistry | null },
  at: { sessionId: string; runId: string; signal: AbortSignal; meter?: () => BridgeMeter },
): Promise<number> {
  const { db, events, kernels } = deps;
  if (!kernels) return 0;
  const cells = notebookCellsToReplay(await events.eventsAfter(at.sessionId, 0));
  if (cells.length === 0) return 0;
  const lastKernel = (await cellsOfSession(db, at.sessionId)).at(-1)?.kernelId ?? null;
  const { kernel } = await kernels.acquire(at.sessionId);
  if (kernel.id === lastKernel) return 0;
  // Through the registry, so the notebook export records them under the new kernel (and a later continue sees it as current).
  let spent = ZERO_USAGE;
  let calls = 0;
  for (const code of cells) {
    if (at.signal.aborted) break;
    const meter = at.meter?.();
    await kernels.execute(at.sessionId, code, { signal: at.signal, bridgeMeter: meter });
    spent = sumUsage(spent, meter?.usage ?? ZERO_USAGE);
    calls += meter?.callCount ?? 0;
  }
  const text = `The notebook's kernel had stopped, so the ${cells.length} cell${cells.length === 1 ? "" : "s"} recorded in this chat ${cells.length === 1 ? "was" : "were"} run again to rebuild its state.`;
  await events.append(at.sessionId, { ...redoMark({ kind: "notebook_rebuilt", from: null }, text), runId: at.runId, ...(calls > 0 ? { llm_metrics: toLlmMetrics(spent) } : {}) });
  return cells.length;
}
