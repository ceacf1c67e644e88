import type { BatchCounts, BatchItemStatus, BatchStatus } from "@/lib/foundation/protocol/batches";
import { batchFromRaw, itemFromRaw, type BatchItemRow, type BatchRow, type NewBatchItem, type RawBatch, type RawItem } from "./batch-rows";
import type { Db } from "./database";
import * as leases from "./leases";
import { BATCH_LEASE_TABLE } from "./leases";

export type { BatchItemRow, BatchRow, NewBatchItem } from "./batch-rows";

/** Creates the batch and all its items in one transaction: a batch is never seen half-made. */
export async function insertBatch(
  db: Db,
  b: { id: string; sessionId: string; functionName: string; functionVersion: number; code: string; createdAt: string; owner: string; leaseExpiresAt?: number | null },
  items: readonly NewBatchItem[],
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.run(
      `INSERT INTO batches (id, session_id, function_name, function_version, code, status, total, created_at, owner, lease_expires_at)
       VALUES (?, ?, ?, ?, ?, 'running', ?, ?, ?, ?)`,
      [b.id, b.sessionId, b.functionName, b.functionVersion, b.code, items.length, b.createdAt, b.owner, b.leaseExpiresAt ?? null],
    );
    let idx = 0;
    for (const item of items) {
      await tx.run(
        `INSERT INTO batch_items (batch_id, idx, file_name, upload_id, blob_sha256, status, error, finished_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        [b.id, idx++, item.fileName, item.uploadId, item.blobSha256, item.failed ? "failed" : "pending", item.failed ?? null, item.failed ? b.createdAt : null],
      );
    }
  });
}

export async function getBatch(db: Db, id: string): Promise<BatchRow | null> {
  const row = await db.one<RawBatch>("SELECT * FROM batches WHERE id = ?", [id]);
  return row ? batchFromRaw(row) : null;
}

export async function batchesOfSession(db: Db, sessionId: string): Promise<BatchRow[]> {
  const rows = await db.all<RawBatch>("SELECT * FROM batches WHERE session_id = ? ORDER BY created_at, id", [sessionId]);
  return rows.map(batchFromRaw);
}

/** Batches still running (a lone instance resumes them all at start). */
export async function runningBatches(db: Db): Promise<BatchRow[]> {
  const rows = await db.all<RawBatch>("SELECT * FROM batches WHERE status = 'running' ORDER BY created_at, id");
  return rows.map(batchFromRaw);
}

/** A lone instance takes every running batch as its own (its id may differ from the run that started them: item writes are fenced by owner). */
export async function takeRunningBatches(db: Db, owner: string): Promise<BatchRow[]> {
  const rows = await db.all<RawBatch>("UPDATE batches SET owner = ? WHERE status = 'running' RETURNING *", [owner]);
  return rows.map(batchFromRaw).sort((x, y) => x.createdAt.localeCompare(y.createdAt) || x.id.localeCompare(y.id));
}

/**
 * Batch leases (several instances): the owner pushes the lease of every running batch it still
 * owns, and learns which those are (one another instance took over is no longer among them).
 * At start it passes `withUnowned` to also take batches made before owners were recorded.
 */
export async function renewBatchLeases(db: Db, owner: string, expiresAt: number, withUnowned = false): Promise<BatchRow[]> {
  const rows = await leases.renewLeases<RawBatch>(db, BATCH_LEASE_TABLE, owner, expiresAt, withUnowned);
  return rows.map(batchFromRaw).sort((x, y) => x.createdAt.localeCompare(y.createdAt) || x.id.localeCompare(y.id));
}

/** Who runs a batch and until when (several instances): where a cancel must go. */
export interface BatchOwnership {
  status: BatchStatus;
  owner: string | null;
  /** Ms since the epoch; null on a lone instance. */
  leaseExpiresAt: number | null;
}

export async function batchOwnership(db: Db, id: string): Promise<BatchOwnership | null> {
  const row = await db.one<{ status: BatchStatus; owner: string | null; lease_expires_at: number | string | null }>(
    "SELECT status, owner, lease_expires_at FROM batches WHERE id = ?",
    [id],
  );
  if (!row) return null;
  return { status: row.status, owner: row.owner, leaseExpiresAt: row.lease_expires_at === null ? null : Number(row.lease_expires_at) };
}

/** Running batches of other instances whose lease ran out by `now` (their owner stopped renewing). */
export async function expiredBatchIds(db: Db, self: string, now: number): Promise<string[]> {
  return (await leases.expiredLeases<RawBatch>(db, BATCH_LEASE_TABLE, now, self)).map((r) => r.id);
}

/** Takes over one expired batch; null when it is not expired any more or another instance won. */
export async function claimExpiredBatch(db: Db, id: string, self: string, now: number, expiresAt: number): Promise<BatchRow | null> {
  const seen = await batchOwnership(db, id);
  if (!seen || seen.owner === null || seen.owner === self || seen.leaseExpiresAt === null || !leases.isLeaseExpired({ expiresAt: seen.leaseExpiresAt }, now)) return null;
  const row = await leases.takeOverLease<RawBatch>(db, BATCH_LEASE_TABLE, { key: id, owner: seen.owner, expiresAt: seen.leaseExpiresAt }, { owner: self, expiresAt });
  return row ? batchFromRaw(row) : null;
}

export async function batchCounts(db: Db, batchId: string): Promise<BatchCounts> {
  const rows = await db.all<{ status: BatchItemStatus; n: number | string }>(
    "SELECT status, COUNT(*) AS n FROM batch_items WHERE batch_id = ? GROUP BY status",
    [batchId],
  );
  const counts: BatchCounts = { pending: 0, running: 0, done: 0, failed: 0, cancelled: 0 };
  for (const r of rows) counts[r.status] = Number(r.n);
  return counts;
}

export async function itemsOfBatch(db: Db, batchId: string, page: { offset: number; limit: number }): Promise<BatchItemRow[]> {
  const rows = await db.all<RawItem>("SELECT * FROM batch_items WHERE batch_id = ? ORDER BY idx LIMIT ? OFFSET ?", [batchId, page.limit, page.offset]);
  return rows.map(itemFromRaw);
}

export async function getItem(db: Db, batchId: string, idx: number): Promise<BatchItemRow | null> {
  const row = await db.one<RawItem>("SELECT * FROM batch_items WHERE batch_id = ? AND idx = ?", [batchId, idx]);
  return row ? itemFromRaw(row) : null;
}

/** Items not yet finished, first first: where a (resumed) batch goes on from. */
export async function pendingItems(db: Db, batchId: string): Promise<BatchItemRow[]> {
  const rows = await db.all<RawItem>("SELECT * FROM batch_items WHERE batch_id = ? AND status = 'pending' ORDER BY idx", [batchId]);
  return rows.map(itemFromRaw);
}

/** Items a dead server left `running` go back to pending; returns how many. */
export async function requeueRunningItems(db: Db, batchId: string): Promise<number> {
  const { changes } = await db.run("UPDATE batch_items SET status = 'pending' WHERE batch_id = ? AND status = 'running'", [batchId]);
  return changes;
}

/**
 * Item writes are fenced by the batch's owner: an instance that stalled past its lease and was
 * taken over must neither start an item (the new owner would skip it as `running` and could end
 * the batch with it left so) nor overwrite one the new owner put back to pending and runs again.
 */
const OWNED = "EXISTS (SELECT 1 FROM batches WHERE id = ? AND owner = ?)";

/** Takes a pending item for `owner`; false when it is not pending (cancelled meanwhile), or the batch is no longer `owner`'s. */
export async function markItemRunning(db: Db, batchId: string, idx: number, owner: string): Promise<boolean> {
  const { changes } = await db.run(`UPDATE batch_items SET status = 'running' WHERE batch_id = ? AND idx = ? AND status = 'pending' AND ${OWNED}`, [batchId, idx, batchId, owner]);
  return changes === 1;
}

/** A chunk's items pending → running for `owner`, in one transaction; returns those it took (not the cancelled, nor any once the batch is another's). */
export async function markItemsRunning(db: Db, batchId: string, idxs: readonly number[], owner: string): Promise<number[]> {
  return db.transaction(async (tx) => {
    const marked: number[] = [];
    for (const idx of idxs) if (await markItemRunning(tx, batchId, idx, owner)) marked.push(idx);
    return marked;
  });
}

export type ItemOutcome = Parameters<typeof finishItem>[3];

/**
 * A chunk's ending in one transaction: the finished items' outcomes (each stored with its
 * overlay row already written), and the items it did not reach back to pending. Fenced by
 * owner like every item write; returns the items whose outcome was written.
 */
export async function settleChunk(
  db: Db,
  batchId: string,
  finished: ReadonlyArray<{ idx: number; outcome: ItemOutcome }>,
  requeue: readonly number[],
  at: string,
  owner: string,
): Promise<number[]> {
  if (finished.length === 0 && requeue.length === 0) return [];
  return db.transaction(async (tx) => {
    const written: number[] = [];
    for (const f of finished) if (await finishItem(tx, batchId, f.idx, f.outcome, at, owner)) written.push(f.idx);
    for (const idx of requeue) await tx.run(`UPDATE batch_items SET status = 'pending' WHERE batch_id = ? AND idx = ? AND status = 'running' AND ${OWNED}`, [batchId, idx, batchId, owner]);
    return written;
  });
}

export async function finishItem(
  db: Db,
  batchId: string,
  idx: number,
  outcome: { status: "done" | "failed" | "cancelled"; result: unknown; stdout: string | null; seconds: number | null; error: string | null; overlayFileId: string | null },
  at: string,
  owner: string,
): Promise<boolean> {
  const { changes } = await db.run(
    `UPDATE batch_items SET status = ?, result = ?, stdout = ?, seconds = ?, error = ?, overlay_file_id = ?, finished_at = ?
     WHERE batch_id = ? AND idx = ? AND ${OWNED}`,
    [outcome.status, outcome.result === null || outcome.result === undefined ? null : JSON.stringify(outcome.result), outcome.stdout, outcome.seconds, outcome.error, outcome.overlayFileId, at, batchId, idx, batchId, owner],
  );
  return changes === 1;
}

/** Every pending item becomes cancelled (a cancel); returns how many. */
export async function cancelPendingItems(db: Db, batchId: string, at: string): Promise<number> {
  const { changes } = await db.run(
    "UPDATE batch_items SET status = 'cancelled', error = 'Cancelled before it ran.', finished_at = ? WHERE batch_id = ? AND status = 'pending'",
    [at, batchId],
  );
  return changes;
}

/** Every running item becomes cancelled: their instance is gone, so nobody else will end them; returns how many. */
export async function cancelRunningItems(db: Db, batchId: string, at: string, error: string): Promise<number> {
  const { changes } = await db.run("UPDATE batch_items SET status = 'cancelled', error = ?, finished_at = ? WHERE batch_id = ? AND status = 'running'", [error, at, batchId]);
  return changes;
}

export async function markBatchStarted(db: Db, batchId: string, at: string): Promise<void> {
  await db.run("UPDATE batches SET started_at = COALESCE(started_at, ?) WHERE id = ?", [at, batchId]);
}

/**
 * running → a final status; false when the batch had already ended. With `owner`, only while it
 * is still that instance's (a cancel settles it from any instance).
 */
export async function finishBatch(db: Db, batchId: string, status: Exclude<BatchStatus, "running">, at: string, owner?: string): Promise<boolean> {
  const fenced = owner === undefined ? "" : " AND owner = ?";
  const { changes } = await db.run(`UPDATE batches SET status = ?, finished_at = ? WHERE id = ? AND status = 'running'${fenced}`, [status, at, batchId, ...(owner === undefined ? [] : [owner])]);
  return changes === 1;
}

/** The blobs a session's batches hold (removed with the session when nothing else uses them). */
export async function batchBlobsOfSession(db: Db, sessionId: string): Promise<string[]> {
  const rows = await db.all<{ blob_sha256: string }>(
    `SELECT DISTINCT i.blob_sha256 FROM batch_items i JOIN batches b ON b.id = i.batch_id
     WHERE b.session_id = ? AND i.blob_sha256 IS NOT NULL`,
    [sessionId],
  );
  return rows.map((r) => r.blob_sha256);
}
