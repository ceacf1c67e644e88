import { randomUUID } from "node:crypto";
import type { BlobStore } from "@/lib/db/blobs";
import {
  batchCounts,
  batchOwnership,
  cancelPendingItems,
  cancelRunningItems,
  finishBatch,
  getBatch,
  insertBatch,
  markBatchStarted,
  markItemsRunning,
  settleChunk,
  type ItemOutcome,
  pendingItems,
  requeueRunningItems,
  renewBatchLeases,
  takeRunningBatches,
  type BatchItemRow,
  type BatchRow,
  type NewBatchItem,
} from "@/lib/db/batches";
import type { Db } from "@/lib/db/database";
import { getFile } from "@/lib/db/files";
import { ArgusError, isArgusError } from "@/lib/errors";
import { openFunctionRunner, type FunctionRunner, type FunctionRunResult } from "@/lib/functions/run-function";
import type { KernelRegistry } from "@/lib/kernels/registry";
import type { BatchCounts, BatchEvent, BatchItemStatus, BatchProgress, BatchView } from "@/lib/protocol/batches";
import type { BatchChannel } from "./batch-channel";
import { routeBatchCancel } from "./cancel-route";
import { nextChunkSize } from "./chunk-size";
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
 * has, and throws when the owner cannot be reached (lib/scale carries it over Redis).
 */
export interface BatchOwnerLink {
  cancelOnOwner(owner: string, target: { sessionId: string; batchId: string }): Promise<void>;
}

/** What the function printed is kept on its row only as a head: the full text can be megabytes. */
export const STDOUT_EXCERPT_CHARS = 2000;

/** How long an item waits before asking again when every kernel is taken. */
const NO_KERNEL_RETRY_MS = 1000;

interface ActiveBatch {
  abort: AbortController;
  cancelled: boolean;
  /** Another instance took the batch over (this one stalled past its lease): stop without writing. */
  abandoned: boolean;
  /** When this server started (or resumed) the batch, and how many items it has finished since: the speed. */
  startedAtMs: number;
  finishedSince: number;
  /**
   * The batch's counts, kept here while it runs: every transition goes through
   * this runner, so progress events need no query (they are two per item).
   */
  counts: BatchCounts | null;
  done: Promise<void>;
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

  constructor(private readonly deps: BatchRunnerDeps) {
    this.slots = new Semaphore(deps.parallel);
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
    const active: ActiveBatch = { abort: new AbortController(), cancelled: false, abandoned: false, startedAtMs: Date.now(), finishedSince: 0, counts: null, done: Promise.resolve() };
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
    await Promise.all(Array.from({ length: workers }, () => this.worker(row, queue, active)));
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

  /**
   * One lane: takes the next chunk of pending items while there are some; its runner keeps one
   * kernel between chunks. The chunk size adapts (chunk-size.ts): one item at first, more while
   * items are fast, fewer after a chunk that failed badly.
   */
  private async worker(row: BatchRow, queue: BatchItemRow[], active: ActiveBatch): Promise<void> {
    const runner = openFunctionRunner(
      { kernels: this.deps.kernels!, db: this.deps.db, blobs: this.deps.blobs },
      { sessionId: row.sessionId, name: row.functionName, code: row.code },
      { limits: { timeoutMs: this.deps.itemTimeoutMs } },
    );
    let size = 1;
    try {
      while (!active.abort.signal.aborted) {
        const chunk = queue.splice(0, size);
        if (chunk.length === 0) break;
        const release = await this.slots.acquire(active.abort.signal);
        if (!release) break; // cancelled (or stopping) while waiting for a lane
        try {
          if (active.abort.signal.aborted) break;
          const started = Date.now();
          const ran = await this.runChunk(row, chunk, runner, active);
          queue.unshift(...ran.again);
          size = nextChunkSize(size, { finished: ran.finished, seconds: (Date.now() - started) / 1000, failed: ran.failed });
          if (ran.noKernel) await new Promise((r) => setTimeout(r, NO_KERNEL_RETRY_MS));
        } finally {
          release();
        }
      }
    } finally {
      await runner.close().catch(() => undefined);
    }
  }

  /**
   * Runs one chunk in one kernel call and records how each item ended. The chunk's items are
   * marked running in one transaction, and its outcomes written in one more when it ends, each
   * item marked done only with its result and overlay row stored; then published, one event
   * per item. Returns the items to run again (those the call did not reach, or all of them when
   * no kernel could be had).
   */
  private async runChunk(
    row: BatchRow,
    chunk: BatchItemRow[],
    runner: FunctionRunner,
    active: ActiveBatch,
  ): Promise<{ again: BatchItemRow[]; finished: number; failed: boolean; noKernel: boolean }> {
    const { db } = this.deps;
    const marked = new Set(await markItemsRunning(db, row.id, chunk.map((i) => i.idx), this.deps.instanceId));
    const items = chunk.filter((i) => marked.has(i.idx)); // the rest were cancelled meanwhile (or the batch is another instance's now)
    for (const item of items) {
      move(active, "pending", "running");
      await this.publish(row, (batch, progress) => ({ type: "item_started", batch, progress, idx: item.idx }), active);
    }
    const finished: Array<{ item: BatchItemRow; outcome: ItemOutcome }> = [];
    const runnable: Array<{ item: BatchItemRow; bytes: Uint8Array }> = [];
    for (const item of items) {
      const bytes = await this.bytesOf(item);
      if (typeof bytes === "string") finished.push({ item, outcome: { status: "failed", result: null, stdout: null, seconds: null, error: bytes, overlayFileId: null } });
      else runnable.push({ item, bytes });
    }
    let outcomes: FunctionRunResult[] = [];
    let noKernel = false;
    try {
      if (runnable.length > 0) outcomes = await runner.callChunk(runnable.map((r) => ({ name: r.item.fileName, bytes: r.bytes })), { signal: active.abort.signal });
    } catch (error) {
      if (isArgusError(error) && error.code === "unavailable:jupyter" && !active.abort.signal.aborted) {
        // Every kernel is taken (other sessions, other batches): wait, then try these items again.
        noKernel = true;
      } else if (!this.stopping(active)) {
        const message = isArgusError(error) ? error.message : "The item could not be run (the error was logged).";
        if (!isArgusError(error)) this.deps.log?.(`[batches] chunk of ${row.id} at #${runnable[0]?.item.idx}: ${String(error).slice(0, 300)}`);
        // Nothing is known of any of them: the first fails with the reason, the rest run again.
        outcomes = [{ result: null, stdout: "", images: [], seconds: 0, error: { kind: active.cancelled ? "cancelled" : "crashed", message } }];
      }
    }
    // Stopping (or taken over): leave the items `running`; whoever runs the batch next runs them again.
    if (this.stopping(active)) return { again: [], finished: 0, failed: true, noKernel: false };
    outcomes.forEach((out, n) => finished.push({ item: runnable[n]!.item, outcome: itemOutcome(out) }));
    const again = runnable.slice(outcomes.length).map((r) => r.item);
    const at = new Date().toISOString();
    // Only what is still this instance's is written (and published): another may have taken the batch over.
    const written = new Set(await settleChunk(db, row.id, finished.map((f) => ({ idx: f.item.idx, outcome: f.outcome })), again.map((i) => i.idx), at, this.deps.instanceId));
    for (const item of again) move(active, "running", "pending");
    for (const f of finished) if (written.has(f.item.idx)) await this.published(row, f.item, active, f.outcome, at);
    const failed = again.length > 0 || outcomes.some((o) => o.error && BAD_ENDINGS.has(o.error.kind));
    return { again: active.abort.signal.aborted ? [] : again, finished: outcomes.length, failed, noKernel };
  }

  /** This process writes nothing more for the batch: the server is stopping, or another instance took it over. */
  private stopping(active: ActiveBatch): boolean {
    return this.closing || active.abandoned;
  }

  /** Publishes one item's ending (already written). */
  private async published(row: BatchRow, item: BatchItemRow, active: ActiveBatch, outcome: ItemOutcome, at: string): Promise<void> {
    move(active, "running", outcome.status);
    active.finishedSince += 1;
    const view = { ...item, ...outcome, result: outcome.result ?? null, finishedAt: at };
    const { blobSha256: _blob, ...shown } = view;
    await this.publish(row, (batch, progress) => ({ type: "item_finished", batch, progress, item: shown }), active);
  }

  /** The item's bytes, or why they cannot be had. */
  private async bytesOf(item: BatchItemRow): Promise<Uint8Array | string> {
    try {
      if (item.blobSha256) return new Uint8Array(await this.deps.blobs.read(item.blobSha256));
      if (item.uploadId) {
        const file = await getFile(this.deps.db, item.uploadId);
        if (file) return new Uint8Array(await this.deps.blobs.read(file.sha256));
      }
    } catch {
      // fall through: the stored bytes are gone
    }
    return "The file is no longer stored (the upload was deleted before its turn).";
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

/** Endings after which the lane's kernel was replaced: the next chunk is smaller. */
const BAD_ENDINGS = new Set(["timeout", "crashed", "output_too_large", "cancelled"]);

/** How a function call's result is recorded on its row. */
function itemOutcome(out: FunctionRunResult): ItemOutcome {
  const status = out.error ? (out.error.kind === "cancelled" ? "cancelled" : "failed") : "done";
  return {
    status,
    result: out.error ? null : out.result,
    stdout: out.stdout ? out.stdout.slice(0, STDOUT_EXCERPT_CHARS) : null,
    seconds: out.seconds,
    error: out.error ? (status === "cancelled" ? "Cancelled while it ran." : out.error.message) : null,
    overlayFileId: out.images[0]?.fileId ?? null,
  };
}

/** Waits for `done`, but no longer than `ms`. */
async function settledOrAfter(done: Promise<void>, ms: number): Promise<void> {
  if (ms === Infinity) return done;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([done, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

function move(active: ActiveBatch, from: BatchItemStatus, to: BatchItemStatus): void {
  if (!active.counts) return;
  active.counts[from] -= 1;
  active.counts[to] += 1;
}
