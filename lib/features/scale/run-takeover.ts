import type { Db } from "@/lib/engines/db/database";
import { releaseLease, takeOverRunLease, type RunLease } from "@/lib/engines/db/run-leases";
import { runIdsOfSession } from "@/lib/engines/db/runs";
import { getSession } from "@/lib/engines/db/sessions";
import { TERMINAL_AGENT_STATES } from "@/lib/foundation/protocol/state";
import type { EventLog } from "@/lib/features/runtime/event-log";
import { writeRunEnding } from "@/lib/features/runtime/run-ending";
import type { RunManager } from "@/lib/features/runtime/run-manager";
import type { ResumeReason } from "@/lib/features/runtime/run-resumption";

export interface TakeOverDeps {
  db: Db;
  events: EventLog;
  runs: RunManager;
  instanceId: string;
  leaseMs: number;
  log: (line: string) => void;
  /** Runs go on here from the log (ARGUS_RESUME_RUNS=on); otherwise they end interrupted. */
  resumeRuns: boolean;
  /** False while this instance's Jupyter is not running (it failed to start): a run taken over then ends, saying why. */
  canRunKernels: () => boolean;
  /** Before the run goes on or ends here: stop what its last owner left running (its cell on a shared Jupyter). */
  onTakenOver?: (sessionId: string) => Promise<void>;
}

const ENDED = new Set<string>(TERMINAL_AGENT_STATES);

/** To a person writing in a chat whose server died, through an instance that cannot take its run (no Jupyter here). */
export const RUN_MOVING_MESSAGE =
  "The Argus server that was running this chat stopped, and this one cannot run notebooks right now. Another server is taking the chat over; send your message again in a few seconds.";

/**
 * Takes a run's lease from its dead, stalled or restarted owner (`lease` as seen expiring, or
 * this instance's own from its last process), exactly once across instances, with a new epoch:
 * whatever the old owner still tries to write is refused. Then the run goes on here from the log
 * (RunManager.resumeHere: its agents and notebook rebuilt, the chat told), every write under the
 * new lease; a run that cannot (an older log, resuming off, no model here) is marked interrupted
 * as before. `leased` is the router's map of the runs this instance holds a lease for.
 */
export async function takeOverRun(deps: TakeOverDeps, lease: RunLease, reason: ResumeReason, leased: Map<string, string>): Promise<void> {
  const { db, events, runs, instanceId, log } = deps;
  const { sessionId, runId } = lease;
  const taken = await takeOverRunLease(db, lease, { owner: instanceId, expiresAt: Date.now() + deps.leaseMs });
  if (!taken) return;
  const release = async () => {
    events.fences.drop(runId);
    if (leased.get(sessionId) === runId) leased.delete(sessionId);
    await releaseLease(db, { sessionId, runId, owner: instanceId });
  };
  // Nothing to go on with: the session is gone, the run never wrote its first event, or it had ended.
  if (!(await getSession(db, sessionId)) || !(await runIdsOfSession(db, sessionId)).includes(runId) || ENDED.has((await events.runState(sessionId, runId)).agentState)) {
    return release();
  }
  events.fences.hold({ sessionId, runId, owner: instanceId, epoch: taken.epoch });
  leased.set(sessionId, runId);
  await deps.onTakenOver?.(sessionId).catch((error: unknown) => log(`[runs] after taking over session ${sessionId}: ${String(error)}`));
  const why = !deps.resumeRuns
    ? "resuming runs is off (ARGUS_RESUME_RUNS=off)"
    : !deps.canRunKernels()
      ? "Jupyter is not running on the Argus server that picked it up, so its notebook could not be rebuilt"
      : await runs.resumeHere(sessionId, runId, reason);
  const was = reason === "restarted" ? "this instance's last process" : `instance ${lease.owner}`;
  if (why === null) {
    log(`[runs] run ${runId} (session ${sessionId}) of ${was} goes on here, rebuilt from the log`);
    return;
  }
  try {
    // The chat says why it could not go on (not only the operator's log).
    await writeRunEnding((event) => events.append(sessionId, event), runId, { kind: reason === "restarted" ? "server_stopped" : "owner_lost", why });
    log(`[runs] ${was} stopped renewing run ${runId} (session ${sessionId}); it could not go on here (${why}), so it was marked interrupted`);
  } finally {
    await release();
  }
}
