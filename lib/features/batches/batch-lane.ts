import type { BlobStore } from "@/lib/engines/db/blobs";
import { markItemsRunning, settleChunk, type BatchItemRow, type BatchRow, type ItemOutcome } from "@/lib/engines/db/batches";
import type { Db } from "@/lib/engines/db/database";
import { getFile } from "@/lib/engines/db/files";
import { isArgusError } from "@/lib/foundation/errors";
import { openFunctionRunner, type FunctionRunner, type FunctionRunResult } from "@/lib/features/functions/run-function";
import type { KernelRegistry } from "@/lib/engines/kernels/registry";
import type { BatchEvent, BatchProgress, BatchView } from "@/lib/foundation/protocol/batches";
import { moveCount, type ActiveBatch } from "./active-batch";
import { nextChunkSize } from "./chunk-size";
import { endedBadly, itemOutcome } from "./item-outcome";
import type { Semaphore } from "./semaphore";

/** How long an item waits before asking again when every kernel is taken. */
const NO_KERNEL_RETRY_MS = 1000;

/** What a lane needs from the runner that started it. */
export interface LaneHost {
  db: Db;
  blobs: BlobStore;
  kernels: KernelRegistry;
  itemTimeoutMs: number;
  /** Written as the owner of the items it marks running; only items still this instance's are settled. */
  instanceId: string;
  /** Lanes over all batches: a chunk runs only while it holds one. */
  slots: Semaphore;
  /** True once this process must write nothing more for the batch (stopping, or taken over). */
  stopping(active: ActiveBatch): boolean;
  publish(row: BatchRow, make: (batch: BatchView, progress: BatchProgress) => BatchEvent, active?: ActiveBatch): Promise<void>;
  log?: (line: string) => void;
}

/**
 * One lane of a batch: takes the next chunk of pending items while there are some; its runner keeps
 * one kernel between chunks. The chunk size adapts (chunk-size.ts): one item at first, more while
 * items are fast, fewer after a chunk that failed badly.
 */
export async function runLane(host: LaneHost, row: BatchRow, queue: BatchItemRow[], active: ActiveBatch): Promise<void> {
  const runner = openFunctionRunner(
    { kernels: host.kernels, db: host.db, blobs: host.blobs },
    { sessionId: row.sessionId, name: row.functionName, code: row.code },
    { limits: { timeoutMs: host.itemTimeoutMs } },
  );
  let size = 1;
  try {
    while (!active.abort.signal.aborted) {
      const chunk = queue.splice(0, size);
      if (chunk.length === 0) break;
      const release = await host.slots.acquire(active.abort.signal);
      if (!release) break; // cancelled (or stopping) while waiting for a lane
      try {
        if (active.abort.signal.aborted) break;
        const started = Date.now();
        const ran = await runChunk(host, row, chunk, runner, active);
        queue.unshift(...ran.again);
        size = nextChunkSize(size, { finished: ran.finished, seconds: (Date.now() - started) / 1000, failed: ran.failed });
        if (ran.noKernel) await pause(NO_KERNEL_RETRY_MS, active.abort.signal);
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
async function runChunk(
  host: LaneHost,
  row: BatchRow,
  chunk: BatchItemRow[],
  runner: FunctionRunner,
  active: ActiveBatch,
): Promise<{ again: BatchItemRow[]; finished: number; failed: boolean; noKernel: boolean }> {
  const { db } = host;
  const marked = new Set(await markItemsRunning(db, row.id, chunk.map((i) => i.idx), host.instanceId));
  const items = chunk.filter((i) => marked.has(i.idx)); // the rest were cancelled meanwhile (or the batch is another instance's now)
  for (const item of items) {
    moveCount(active, "pending", "running");
    await host.publish(row, (batch, progress) => ({ type: "item_started", batch, progress, idx: item.idx }), active);
  }
  const finished: Array<{ item: BatchItemRow; outcome: ItemOutcome }> = [];
  const runnable: Array<{ item: BatchItemRow; bytes: Uint8Array }> = [];
  for (const item of items) {
    const bytes = await bytesOf(host, item);
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
    } else if (!host.stopping(active)) {
      const message = isArgusError(error) ? error.message : "The item could not be run (the error was logged).";
      if (!isArgusError(error)) host.log?.(`[batches] chunk of ${row.id} at #${runnable[0]?.item.idx}: ${String(error).slice(0, 300)}`);
      // Nothing is known of any of them: the first fails with the reason, the rest run again.
      outcomes = [{ result: null, stdout: "", images: [], seconds: 0, error: { kind: active.cancelled ? "cancelled" : "crashed", message } }];
    }
  }
  // Stopping (or taken over): leave the items `running`; whoever runs the batch next runs them again.
  if (host.stopping(active)) return { again: [], finished: 0, failed: true, noKernel: false };
  outcomes.forEach((out, n) => finished.push({ item: runnable[n]!.item, outcome: itemOutcome(out) }));
  const again = runnable.slice(outcomes.length).map((r) => r.item);
  const at = new Date().toISOString();
  // Only what is still this instance's is written (and published): another may have taken the batch over.
  const written = new Set(await settleChunk(db, row.id, finished.map((f) => ({ idx: f.item.idx, outcome: f.outcome })), again.map((i) => i.idx), at, host.instanceId));
  for (const item of again) moveCount(active, "running", "pending");
  for (const f of finished) if (written.has(f.item.idx)) await publishItemEnd(host, row, f.item, active, f.outcome, at);
  const failed = again.length > 0 || outcomes.some(endedBadly);
  return { again: active.abort.signal.aborted ? [] : again, finished: outcomes.length, failed, noKernel };
}

/** Publishes one item's ending (already written). */
async function publishItemEnd(host: LaneHost, row: BatchRow, item: BatchItemRow, active: ActiveBatch, outcome: ItemOutcome, at: string): Promise<void> {
  moveCount(active, "running", outcome.status);
  active.finishedSince += 1;
  const view = { ...item, ...outcome, result: outcome.result ?? null, finishedAt: at };
  const { blobSha256: _blob, ...shown } = view;
  await host.publish(row, (batch, progress) => ({ type: "item_finished", batch, progress, item: shown }), active);
}

/** The item's bytes, or why they cannot be had. */
async function bytesOf(host: LaneHost, item: BatchItemRow): Promise<Uint8Array | string> {
  try {
    if (item.blobSha256) return new Uint8Array(await host.blobs.read(item.blobSha256));
    if (item.uploadId) {
      const file = await getFile(host.db, item.uploadId);
      if (file) return new Uint8Array(await host.blobs.read(file.sha256));
    }
  } catch {
    // fall through: the stored bytes are gone
  }
  return "The file is no longer stored (the upload was deleted before its turn).";
}

/** Waits `ms`, or less when `signal` fires: a cancel does not wait out a retry's pause. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
