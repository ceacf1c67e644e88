import type { Db } from "@/lib/engines/db/database";
import { allLeases, releaseAllLeases, releaseLease, takeOverRunLease } from "@/lib/engines/db/run-leases";
import { ArgusError } from "@/lib/foundation/errors";
import type { RunCommandBus } from "./run-command-bus";
import { takeOverRun, type TakeOverDeps } from "./run-takeover";

/**
 * What an instance does about runs before it serves: refuse to start under an instance id a live
 * process already uses, and mark interrupted the runs its own last stop cut off.
 */

/** Why a second process under an instance id already in use does not start, in plain words. */
export function duplicateInstanceIdMessage(instanceId: string): string {
  return `Another Argus instance is already running with ARGUS_INSTANCE_ID=${instanceId}. Each instance needs an id of its own (or none: one is made at start); this one did not start, so that instance's runs go on undisturbed.`;
}

/**
 * Refuses to start under an ARGUS_INSTANCE_ID another live process already uses: recovering at
 * start lets go of every lease under this id and marks their runs interrupted, which would cut
 * off that process's live runs. A process under this id that died (a quick restart, even after
 * kill -9) left no listener behind. Without Redis there is only one instance; with Redis not
 * answering yet, the check cannot be made (logged). Two processes started under one id in the
 * same instant may both pass: the check guards against a mistake, not a race.
 */
export async function refuseDuplicateId({ bus, instanceId, log }: { bus: RunCommandBus | null; instanceId: string; log: (line: string) => void }): Promise<void> {
  if (!bus) return;
  const listeners = await bus.listenersOfThisId();
  if (listeners === null) log(`[runs] Redis did not answer, so this instance could not check that no other live instance uses ARGUS_INSTANCE_ID=${instanceId}`);
  else if (listeners > 0) throw new ArgusError("conflict:api", duplicateInstanceIdMessage(instanceId));
}

/** The owner of a lease an instance without kernels handed on: never a real instance id (those have no '/'). */
export function handedOnOwner(instanceId: string): string {
  return `${instanceId}/handed-on`;
}

/**
 * At start: runs the log shows as live were cut off by this process's last stop, unless another
 * live instance holds them. Those still leased under this instance's id (a quick restart) go on
 * here from the log where they can (run-takeover.ts); the rest are marked interrupted. A lone
 * instance owns everything, so every live run is marked (as before leases existed). Called once
 * Socket.io is attached, so every client hears it. Returns how many were marked. An instance whose
 * Jupyter did not start hands its leased runs on to instances that have kernels instead.
 */
export async function recoverAtStart(deps: TakeOverDeps & { bus: RunCommandBus | null }, leased: Map<string, string>): Promise<number> {
  const { db, runs, instanceId, bus } = deps;
  if (!bus) {
    await releaseAllLeases(db);
    return runs.markInterrupted();
  }
  // The last process under this id is gone (refuseDuplicateId): its runs' leases are taken again, with a new epoch.
  for (const lease of (await allLeases(db)).filter((l) => l.owner === instanceId)) {
    // No Jupyter here: the run is handed to no owner, already expired, so the instances that have
    // kernels take it over at their next sweep (this one only after its deferral: lease-policy.ts).
    const handed = !deps.canRunKernels() && (await takeOverRunLease(db, lease, { owner: handedOnOwner(instanceId), expiresAt: Date.now() }).catch(() => null));
    if (handed) {
      deps.log(`[runs] handed run ${lease.runId} (session ${lease.sessionId}) on to instances that can run notebook cells (Jupyter is not running here)`);
      continue;
    }
    await takeOverRun(deps, lease, "restarted", leased).catch((error: unknown) => deps.log(`[runs] could not take back run ${lease.runId}: ${String(error)}`));
    // One that neither went on nor was released (an error above) is let go, and marked below.
    if (leased.get(lease.sessionId) !== lease.runId) await releaseLease(db, { sessionId: lease.sessionId, runId: lease.runId, owner: instanceId });
  }
  const held = new Map((await allLeases(db)).map((l) => [l.sessionId, l] as const));
  // A live run with another instance's lease is that instance's business (its sweeper, or
  // ours once the lease runs out); one without any lease was this process's or predates leases.
  return runs.markInterrupted((run) => held.get(run.sessionId)?.runId !== run.id);
}
