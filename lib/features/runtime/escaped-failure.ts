import type { Db } from "@/lib/engines/db/database";
import { isDiskFull } from "@/lib/engines/db/disk-space";
import { isRunLeaseLost } from "@/lib/engines/db/run-leases";
import { getSession } from "@/lib/engines/db/sessions";
import { isArgusError } from "@/lib/foundation/errors";
import type { DiskFullEndings } from "./disk-full-endings";

/**
 * What to do with an error that escaped a run's controller (which ends runs itself): a full disk's
 * ending is written once there is room, a database that went away or a lease another instance took
 * leave the ending to others, a deleted session just ends it; anything else is a bug to see.
 * Returns whether the database cut the run off (its end is then recorded when it is back, by the
 * run router).
 */
export async function settleEscapedFailure(
  error: unknown,
  at: { sessionId: string; runId: string; closing: boolean; diskFull: DiskFullEndings; db: Db },
): Promise<boolean> {
  const { sessionId, runId } = at;
  if (!at.closing && isDiskFull(error)) {
    await at.diskFull.end(sessionId, runId);
    return false;
  }
  if (isArgusError(error) && error.code === "unavailable:db") {
    console.error(`[argus] run ${runId} stopped: ${error.message}`);
    return true;
  }
  // Another instance took the run over and wrote its ending (the database refused this write).
  if (isRunLeaseLost(error)) {
    console.log(`[argus] run ${runId} stopped: ${error.message}`);
    return false;
  }
  const exists = await getSession(at.db, sessionId).catch(() => true);
  if (!at.closing && exists) console.error("[argus] run failed outside its controller:", error);
  return false;
}
