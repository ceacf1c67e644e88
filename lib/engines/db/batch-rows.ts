/** The batches and batch_items tables' rows, as stored and as Argus uses them. */
import type { BatchItemStatus, BatchItemView, BatchStatus, BatchView } from "@/lib/foundation/protocol/batches";

/** A batch as stored: the view plus the code it runs (copied in at creation). */
export interface BatchRow extends Omit<BatchView, "counts"> {
  code: string;
}

/** An item as stored: the view plus where its bytes are (an upload or a blob of the batch's own). */
export interface BatchItemRow extends BatchItemView {
  blobSha256: string | null;
}

/** What a new item starts with. A file refused at intake starts `failed` with its reason. */
export interface NewBatchItem {
  fileName: string;
  uploadId: string | null;
  blobSha256: string | null;
  failed?: string;
}

export interface RawBatch {
  id: string;
  session_id: string;
  function_name: string;
  function_version: number;
  code: string;
  status: BatchStatus;
  total: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface RawItem {
  batch_id: string;
  idx: number;
  file_name: string;
  upload_id: string | null;
  blob_sha256: string | null;
  status: BatchItemStatus;
  result: string | null;
  stdout: string | null;
  seconds: number | null;
  error: string | null;
  overlay_file_id: string | null;
  finished_at: string | null;
}

/** A batches row as the database returns it (Postgres gives numbers as strings) → BatchRow. */
export const batchFromRaw = (r: RawBatch): BatchRow => ({
  id: r.id,
  sessionId: r.session_id,
  functionName: r.function_name,
  functionVersion: Number(r.function_version),
  code: r.code,
  status: r.status,
  total: Number(r.total),
  createdAt: r.created_at,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
});

/** A batch_items row → BatchItemRow, its result parsed from JSON. */
export const itemFromRaw = (r: RawItem): BatchItemRow => ({
  idx: Number(r.idx),
  fileName: r.file_name,
  uploadId: r.upload_id,
  blobSha256: r.blob_sha256,
  status: r.status,
  result: r.result === null ? null : (JSON.parse(r.result) as unknown),
  stdout: r.stdout,
  seconds: r.seconds === null ? null : Number(r.seconds),
  error: r.error,
  overlayFileId: r.overlay_file_id,
  finishedAt: r.finished_at,
});
