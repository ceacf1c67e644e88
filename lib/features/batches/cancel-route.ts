import type { BatchOwnership } from "@/lib/engines/db/batches";
import { isLeaseExpired } from "@/lib/engines/db/leases";

/**
 * Decisions about cancelling a batch when several instances share the database, apart from any
 * I/O. A batch's running items live in its owner's process: only the owner can interrupt them,
 * so a cancel that reaches another instance goes to the owner while the owner is alive.
 */

/** Where a cancel for a batch that is not running in this process is handled. */
export type BatchCancelRoute =
  /** Settle it in the database here: it has ended, it is this instance's own, or it has no lease. */
  | { kind: "here" }
  /** A live owner on another instance runs it: the cancel goes there. */
  | { kind: "owner"; owner: string }
  /**
   * Its owner stopped renewing the lease (it died or stalled) and no instance has taken it over
   * yet: settle it here, the items the owner left running included, since nobody else will end them.
   */
  | { kind: "owner_gone" };

export function routeBatchCancel(batch: BatchOwnership | null, self: string, now: number): BatchCancelRoute {
  // No lease: written by a lone instance before leases; nobody renews it, nobody to ask.
  if (!batch || batch.status !== "running" || batch.owner === null || batch.owner === self || batch.leaseExpiresAt === null) return { kind: "here" };
  if (isLeaseExpired({ expiresAt: batch.leaseExpiresAt }, now)) return { kind: "owner_gone" };
  return { kind: "owner", owner: batch.owner };
}

/**
 * Why a batch this instance runs was missing from its lease renewal: another instance settled it
 * as cancelled (a cancel that could not reach this owner: the owner stops its items as for a
 * local cancel), or it is not this instance's any more (taken over after a stall, or it ended or
 * was deleted meanwhile: stop without writing).
 */
export function whyNotRenewed(batch: BatchOwnership | null, self: string): "cancelled_elsewhere" | "lost" {
  return batch?.status === "cancelled" && batch.owner === self ? "cancelled_elsewhere" : "lost";
}
