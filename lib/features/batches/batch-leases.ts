import type { BatchRow } from "@/lib/engines/db/batches";
import { batchOwnership, claimExpiredBatch, expiredBatchIds, renewBatchLeases } from "@/lib/engines/db/batches";
import type { Db } from "@/lib/engines/db/database";
import { LeaseUpkeep } from "@/lib/features/scale/lease-upkeep";
import { whyNotRenewed } from "./cancel-route";

/** What the keeper needs of the batch runner. */
export interface LeasedBatches {
  activeIds(): string[];
  adopt(row: BatchRow): Promise<void>;
  abandon(batchId: string): Promise<void>;
  cancelledElsewhere(batchId: string): boolean;
}

export interface BatchLeaseDeps {
  db: Db;
  instanceId: string;
  leaseMs: number;
  batches: LeasedBatches;
  log: (line: string) => void;
}

/**
 * Batch leases across instances (REDIS_URL), on the same timings as run leases:
 * the owner renews the lease of every batch it runs three times per lease; every
 * instance sweeps, and takes over a running batch whose lease ran out (its owner
 * died or stalled), resuming it from its first unfinished item. An owner that
 * wakes up after a stall finds the batch gone from its renewal and stops it
 * without writing more. An owner whose batch another instance settled as cancelled (a cancel
 * that could not reach it over Redis) stops its running items then, as for a local cancel.
 */
export class BatchLeaseKeeper {
  /** Renewals and sweeps on the lease timings, one at a time: a slow database must not pile them up. */
  private readonly upkeep: LeaseUpkeep;

  constructor(private readonly deps: BatchLeaseDeps) {
    this.upkeep = new LeaseUpkeep(deps.leaseMs, { renew: () => this.renew(), sweep: () => this.sweep() }, (_step, error) =>
      this.deps.log(`[batches] lease upkeep failed: ${String(error).slice(0, 300)}`),
    );
  }

  start(): void {
    this.upkeep.start();
  }

  async close(): Promise<void> {
    await this.upkeep.close();
  }

  /**
   * Pushes this instance's leases on; stops here what another instance has taken over meanwhile,
   * and cancels here what another instance settled as cancelled.
   */
  async renew(): Promise<void> {
    const { db, instanceId, leaseMs, batches } = this.deps;
    const held = new Set((await renewBatchLeases(db, instanceId, Date.now() + leaseMs)).map((b) => b.id));
    for (const id of batches.activeIds()) {
      if (held.has(id)) continue;
      if (whyNotRenewed(await batchOwnership(db, id), instanceId) === "cancelled_elsewhere") {
        // Not awaited: interrupting its items must not hold up the renewal of the other batches.
        if (batches.cancelledElsewhere(id)) this.deps.log(`[batches] batch ${id} was cancelled on another instance; stopping its items here`);
        continue;
      }
      this.deps.log(`[batches] batch ${id} was taken over by another instance; stopping it here`);
      await batches.abandon(id);
    }
  }

  /** Takes over every batch whose owner stopped renewing its lease. */
  async sweep(): Promise<void> {
    const { db, instanceId, leaseMs, batches } = this.deps;
    const now = Date.now();
    for (const id of await expiredBatchIds(db, instanceId, now)) {
      const row = await claimExpiredBatch(db, id, instanceId, now, Date.now() + leaseMs);
      if (row) await batches.adopt(row);
    }
  }
}
