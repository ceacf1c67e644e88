import { z } from "zod";

/** A batch run (issue #15): one stored function version over many files. */
export const BatchStatusSchema = z.enum(["running", "done", "cancelled", "failed"]);
export type BatchStatus = z.infer<typeof BatchStatusSchema>;

export const BatchItemStatusSchema = z.enum(["pending", "running", "done", "failed", "cancelled"]);
export type BatchItemStatus = z.infer<typeof BatchItemStatusSchema>;

export type BatchCounts = Record<BatchItemStatus, number>;

/** What the person sees of the batch's speed and what is left (lib/features/batches/progress.ts). */
export interface BatchProgress {
  finished: number;
  left: number;
  /** Items finished per second since the batch (re)started; null before the first one. */
  itemsPerSecond: number | null;
  /** Seconds left at that speed; null while unknown. */
  secondsLeft: number | null;
}

export interface BatchView {
  id: string;
  sessionId: string;
  functionName: string;
  functionVersion: number;
  status: BatchStatus;
  total: number;
  counts: BatchCounts;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface BatchItemView {
  idx: number;
  fileName: string;
  uploadId: string | null;
  status: BatchItemStatus;
  /** The function's return value, JSON-safe. */
  result: unknown;
  /** The head of what the function printed. */
  stdout: string | null;
  seconds: number | null;
  /** Why the item failed, in plain words. */
  error: string | null;
  /** The first image the function saved (an overlay), as a generated file. */
  overlayFileId: string | null;
  finishedAt: string | null;
}

/**
 * The `batch` Socket.io event: every state change of a batch, so a page shows
 * progress live. Each carries the whole batch view (not a delta), so a missed
 * event loses nothing; a reloaded page reads the same state over HTTP.
 */
export type BatchEvent =
  | { type: "batch_created"; batch: BatchView; progress: BatchProgress }
  | { type: "item_started"; batch: BatchView; progress: BatchProgress; idx: number }
  | { type: "item_finished"; batch: BatchView; progress: BatchProgress; item: BatchItemView }
  | { type: "batch_finished"; batch: BatchView; progress: BatchProgress };

/** POST /api/sessions/:id/batches with JSON: session uploads by id. */
export const CreateBatchJsonSchema = z.strictObject({
  functionName: z.string().min(1).max(200),
  functionVersion: z.number().int().min(1).optional(),
  uploadIds: z.array(z.string().uuid()).min(1).max(100_000),
});

/** The multipart form's text fields (files come as `files`, zips as `zip`). */
export const CreateBatchFormSchema = z.strictObject({
  functionName: z.string().min(1).max(200),
  functionVersion: z.coerce.number().int().min(1).optional(),
});

export const BatchPageSchema = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});
