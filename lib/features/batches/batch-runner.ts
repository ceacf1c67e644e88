import { randomUUID } from "node:crypto";
import type { BlobStore } from "@/lib/engines/db/blobs";
import {
  batchCounts,
  batchOwnership,
  cancelPendingItems,
  cancelRunningItems,
  finishBatch,
  getBatch,
  insertBatch,
  markBatchStarted,
  pendingItems,
  requeueRunningItems,
  renewBatchLeases,
  takeRunningBatches,
  type BatchRow,
  type NewBatchItem,
} from "@/lib/engines/db/batches";
import type { Db } from "@/lib/engines/db/database";
import { ArgusError } from "@/lib/foundation/errors";
import type { KernelRegistry } from "@/lib/engines/kernels/registry";
import type { BatchEvent, BatchProgress, BatchView } from "@/lib/foundation/protocol/batches";
import { newActiveBatch, settledOrAfter, type ActiveBatch } from "./active-batch";
import type { BatchChannel } from "./batch-channel";
import { runLane, type LaneHost } from "./batch-lane";
import { routeBatchCancel } from "./cancel-route";
import { batchProgress } from "./progress";
import { Semaphore } from "./semaphore";

export interface BatchRunnerDeps {
  db: Db;
  blobs: BlobStore;
  /** Null when Argus runs without Jupyter: batches are then refused. */
  kernels: KernelRegistry | null;
  channel: BatchChannel;
  /** Items run at once across all batches (ARGUS_BATCH_PARALLEL). */
  parallel: number;
  itemTimeoutMs: number;
  /** This instance's id, written as the owner of the batches it starts. */
  instanceId: string;
  /**
   * Several instances share the database (REDIS_URL): batches carry a lease of this many
   * milliseconds, which the owner renews (batch-leases.ts) and another instance takes over once it
   * runs out. At start an instance resumes only its own batches, never items another live
   * instance is running. Null on a lone instance, which resumes every batch.
   */
  leaseMs: number | null;
  /** Reaches the instance that owns a batch (REDIS_URL); null on a lone instance. */
  owners?: BatchOwnerLink | null;
  log?: (line: string) => void;
}

/**
 * Asks the instance that owns a batch to cancel it there, as a local cancel; resolves once it
 * has, and throws when the owner cannot be reached (lib/features/scale carries it over Redis).
 */
export interface BatchOwnerLink {
  cancelOnOwner(owner: string, target: { sessionId: string; batchId: string }): Promise<void>;
}

/**
 * Runs batches: each item through the function runner in an isolated kernel,
 * at most `parallel` at once over all batches, each with its own timeout. A
 * function that fails (hangs, crashes its kernel, prints without end) fails
 * its own item; the runner replaces that kernel and the batch goes on.
 *
 * State lives in the database before it is published, so a reloaded page reads
 * it, and a stopped server leaves `running` items that the next one puts back
 * to pending and resumes from (resumeAll).
 */
export class BatchRunner {
  private readonly active = new Map<string, ActiveBatch>();
  private readonly slots: Semaphore;
  private closing = false;

  /** What the lanes (batch-lane.ts) use of this runner. */
  private readonly lane: LaneHost;

  constructor(private readonly deps: BatchRunnerDeps) {
    this.slots = new Semaphore(deps.parallel);
    this.lane = {
      db: deps.db,
      blobs: deps.blobs,
      kernels: deps.kernels!, // lanes start only for batches create/resumeAll accepted, which need kernels
      itemTimeoutMs: deps.itemTimeoutMs,
      instanceId: deps.instanceId,
      slots: this.slots,
      stopping: (active) => this.stopping(active),
      publish: (row, make, active) => this.publish(row, make, active),
      log: deps.log,
    };
  }

  /** Stores the batch with its items and starts it. */
  async create(sessionId: string, fn: { name: string; version: number; code: string }, items: readonly NewBatchItem[]): Promise<BatchView> {
    if (!this.deps.kernels) throw new ArgusError("unavailable:jupyter", "Batch runs need Python kernels, and Jupyter is off on this server.");
    if (this.closing) throw new ArgusError("unavailable:api", "The server is stopping; start the batch again in a moment.");
    const id = randomUUID();
    const leaseExpiresAt = this.deps.leaseMs === null ? null : Date.now() + this.deps.leaseMs;
    await insertBatch(this.deps.db, { id, sessionId, functionName: fn.name, functionVersion: fn.version, code: fn.code, createdAt: new Date().toISOString(), owner: this.deps.instanceId, leaseExpiresAt }, items);
    const row = (await getBatch(this.deps.db, id))!;
    await this.publish(row, (batch, progress) => ({ type: "batch_created", batch, progress }));
    this.start(row);
    return (await this.view(id))!.batch;
  }

  /** Resumes every batch a stopped server left running, from its first unfinished item. */
  async resumeAll(): Promise<number> {
    if (!this.deps.kernels) return 0;
    const { leaseMs, instanceId } = this.deps;
    // With leases, taking the own batches renews them in the same statement: another instance's
    // sweeper cannot take one over between reading it and resuming it here.
    const rows = leaseMs === null ? await takeRunningBatches(this.deps.db, instanceId) : await renewBatchLeases(this.deps.db, instanceId, Date.now() + leaseMs, true);
    for (const row of rows) await this.adopt(row, "resuming");
    return rows.length;
  }

  /** Runs a batch another run of Argus left: its interrupted items go back to pending, then it goes on. */
  async adopt(row: BatchRow, why = "taking over"): Promise<void> {
    if (this.active.has(row.id) || this.closing) return;
    const requeued = await requeueRunningItems(this.deps.db, row.id);
    this.deps.log?.(`[batches] ${why} batch ${row.id} (${requeued} interrupted item(s) back to pending)`);
    this.start(row);
  }

  /** The batches running in this process. */
  activeIds(): string[] {
    return [...this.active.keys()];
  }

  /** Stops a batch here without writing anything more: another instance owns it now. */
  async abandon(batchId: string): Promise<void> {
    const active = this.active.get(batchId);
    if (!active) return;
    active.abandoned = true;
    active.abort.abort(new Error("taken over by another instance"));
    await active.done;
  }

  /**
   * Stops a batch, wherever it runs: running items are interrupted, the rest marked cancelled.
   * Several instances: a batch running on another live instance is cancelled there, by its owner,
   * which alone can interrupt its items. When the owner cannot be reached, the batch is settled
   * in the database here, and the owner, finding it cancelled at its next lease renewal, stops
   * its items then (cancelledElsewhere).
   */
  async cancel(batchId: string): Promise<void> {
    const { owners, leaseMs, instanceId } = this.deps;
    if (!this.active.has(batchId) && owners && leaseMs !== null) {
      const route = routeBatchCancel(await batchOwnership(this.deps.db, batchId), instanceId, Date.now());
      if (route.kind === "owner_gone") {
        // Its owner died mid-item and nobody took it over: the cancel ends those items too. Should the
        // owner only have stalled, it finds the batch cancelled when it wakes and stops them itself.
        await cancelRunningItems(this.deps.db, batchId, new Date().toISOString(), "Cancelled; the Argus instance running it had stopped responding.");
      } else if (route.kind === "owner") {
        const row = await getBatch(this.deps.db, batchId);
        try {
          if (row) return await owners.cancelOnOwner(route.owner, { sessionId: row.sessionId, batchId });
        } catch (error) {
          this.deps.log?.(`[batches] could not reach ${route.owner} to cancel batch ${batchId} (${String(error).slice(0, 200)}); settling it here, the owner stops its items at its next lease renewal`);
        }
      }
    }
    await this.cancelHere(batchId);
  }

  /**
   * Cancels a batch in this process only (the owner's side of a cancel another instance sent).
   * Resolves once the batch is settled, or after `settleWithinMs` with the cancel under way (its
   * items interrupted and recorded, and its end published, when their kernels let go): the asker
   * must have its answer before it gives up, or it would settle the batch a second time.
   */
  async cancelHere(batchId: string, settleWithinMs = Infinity): Promise<void> {
    const active = this.active.get(batchId);
    if (active) {
      active.cancelled = true;
      active.abort.abort(new Error("cancelled"));
      await settledOrAfter(active.done, settleWithinMs);
      return;
    }
    // Not running here (it ended, or the server has not resumed it yet): settle it in the database.
    const now = new Date().toISOString();
    await cancelPendingItems(this.deps.db, batchId, now);
    const row = await getBatch(this.deps.db, batchId);
    if (row && (await finishBatch(this.deps.db, batchId, "cancelled", now))) {
      await this.publish(row, (batch, progress) => ({ type: "batch_finished", batch, progress }));
    }
  }

  /**
   * Another instance settled a batch running here as cancelled (the cancel could not reach this
   * owner): stop it as for a local cancel. Its running items are interrupted and recorded as
   * cancelled, and its end is published. The events read the counts from the database from now
   * on, since the pending items changed there. False when it was not running here or already stopping.
   */
  cancelledElsewhere(batchId: string): boolean {
    const active = this.active.get(batchId);
    if (!active || active.cancelled || active.abort.signal.aborted) return false;
    active.cancelled = true;
    active.counts = null;
    active.abort.abort(new Error("cancelled on another instance"));
    return true;
  }

  /** The batch as a page shows it, with its progress; null when there is no such batch. */
  async view(batchId: string): Promise<{ batch: BatchView; progress: BatchProgress } | null> {
    const row = await getBatch(this.deps.db, batchId);
    if (!row) return null;
    return this.viewOf(row);
  }

  /** Waits until the batch is no longer running in this process (tests, the benchmark). */
  async settled(batchId: string): Promise<void> {
    await this.active.get(batchId)?.done;
  }

  /**
   * Stops working without settling anything: running items stay `running` in
   * the database, and the next server puts them back to pending.
   */
  async close(): Promise<void> {
    this.closing = true;
    for (const a of this.active.values()) a.abort.abort(new Error("server stopping"));
    await Promise.all([...this.active.values()].map((a) => a.done));
  }

  private start(row: BatchRow): void {
    const active = newActiveBatch(Date.now());
    this.active.set(row.id, active);
    active.done = this.run(row, active)
      .catch((error: unknown) => this.deps.log?.(`[batches] batch ${row.id} stopped on an error: ${String(error).slice(0, 300)}`))
      .finally(() => this.active.delete(row.id));
  }

  private async run(created: BatchRow, active: ActiveBatch): Promise<void> {
    await markBatchStarted(this.deps.db, created.id, new Date().toISOString());
    const row = (await getBatch(this.deps.db, created.id)) ?? created;
    const queue = await pendingItems(this.deps.db, row.id);
    active.counts = await batchCounts(this.deps.db, row.id);
    const workers = Math.max(1, Math.min(this.deps.parallel, queue.length));
    await Promise.all(Array.from({ length: workers }, () => runLane(this.lane, row, queue, active)));
    if (this.stopping(active)) return;
    const now = new Date().toISOString();
    if (active.cancelled) await cancelPendingItems(this.deps.db, row.id, now);
    active.counts = null; // the final event reads the settled counts from the database
    // Not when another instance took the batch over meanwhile: its items may still be running there.
    const ended = await finishBatch(this.deps.db, row.id, active.cancelled ? "cancelled" : "done", now, this.deps.instanceId);
    // A cancel that another instance also settled in the database (it could not reach this owner
    // in time) found the batch already cancelled: its end, with the items settled here, is still told.
    if (ended || (active.cancelled && (await getBatch(this.deps.db, row.id))?.status === "cancelled")) {
      await this.publish(row, (batch, progress) => ({ type: "batch_finished", batch, progress }), active);
    }
  }

  /** This process writes nothing more for the batch: the server is stopping, or another instance took it over. */
  private stopping(active: ActiveBatch): boolean {
    return this.closing || active.abandoned;
  }

  private async viewOf(row: BatchRow, active = this.active.get(row.id)): Promise<{ batch: BatchView; progress: BatchProgress }> {
    if (active?.counts) {
      // Running here: the row's fields do not change until it finishes, and the counts are live.
      const { code: _c, ...running } = row;
      const counts = { ...active.counts };
      return { batch: { ...running, counts }, progress: batchProgress({ counts, finishedSince: active.finishedSince, elapsedSeconds: (Date.now() - active.startedAtMs) / 1000 }) };
    }
    const counts = await batchCounts(this.deps.db, row.id);
    const fresh = (await getBatch(this.deps.db, row.id)) ?? row;
    const { code: _code, ...rest } = fresh;
    const progress = batchProgress({
      counts,
      finishedSince: active?.finishedSince ?? 0,
      elapsedSeconds: active ? (Date.now() - active.startedAtMs) / 1000 : 0,
    });
    return { batch: { ...rest, counts }, progress };
  }

  private async publish(row: BatchRow, make: (batch: BatchView, progress: BatchProgress) => BatchEvent, active?: ActiveBatch): Promise<void> {
    const { batch, progress } = await this.viewOf(row, active);
    this.deps.channel.publish(row.sessionId, make(batch, progress));
  }
}
