import { batchesOfSession, getBatch, itemsOfBatch } from "@/lib/engines/db/batches";
import { functionVersion } from "@/lib/engines/db/functions";
import { ArgusError } from "@/lib/foundation/errors";
import type { BatchItemView, BatchProgress, BatchView } from "@/lib/foundation/protocol/batches";
import { fileUrl } from "@/lib/foundation/protocol/files";
import { batchCsv, batchJson } from "./export";
import type { BatchRunner } from "./batch-runner";
import { intakeItems, type BatchInput, type IntakeDeps } from "./batch-intake";

/** What the batch routes need of the core. */
export interface BatchDeps extends IntakeDeps {
  batches: BatchRunner;
}

/**
 * Starts a batch of one session function (a version, or the latest) over the
 * picked uploads or the sent files. The code is looked up now and copied into
 * the batch, so a new version made meanwhile does not change a running batch.
 */
export async function startBatch(deps: BatchDeps, sessionId: string, fn: { name: string; version?: number | null }, input: BatchInput): Promise<BatchView> {
  const found = await existingFunction(deps, sessionId, fn);
  const items = await intakeItems(deps, sessionId, input);
  return deps.batches.create(sessionId, { name: found.name, version: found.version, code: found.code }, items);
}

/**
 * The function version a batch would run, or a 404 that names it. The batch route also asks as soon
 * as the form's functionName arrives, before reading the files behind it.
 */
export async function existingFunction(deps: Pick<BatchDeps, "db">, sessionId: string, fn: { name: string; version?: number | null }) {
  const found = await functionVersion(deps.db, sessionId, fn.name, fn.version ?? null);
  if (!found) {
    const which = fn.version ? `version ${fn.version} of '${fn.name}'` : `a function named '${fn.name}'`;
    throw new ArgusError("not_found:api", `This session has no ${which}. Ask the agent for the function first, or check its name in the Code tab.`, { field: "functionName" });
  }
  return found;
}

/** The batch if it belongs to the session; otherwise the same 404 as for a batch that does not exist. */
export async function batchOfSession(deps: Pick<BatchDeps, "db">, sessionId: string, batchId: string) {
  const row = await getBatch(deps.db, batchId);
  if (!row || row.sessionId !== sessionId) throw new ArgusError("not_found:api", "There is no such batch in this session.");
  return row;
}

export async function batchPage(
  deps: BatchDeps,
  sessionId: string,
  batchId: string,
  page: { offset: number; limit: number },
): Promise<{ batch: BatchView; progress: BatchProgress; items: BatchItemView[]; offset: number }> {
  await batchOfSession(deps, sessionId, batchId);
  const view = (await deps.batches.view(batchId))!;
  const items = (await itemsOfBatch(deps.db, batchId, page)).map(({ blobSha256: _b, ...shown }) => shown);
  return { ...view, items, offset: page.offset };
}

/** Every item, for the exports (a batch holds at most ARGUS_BATCH_MAX_FILES). */
export async function allItems(deps: BatchDeps, sessionId: string, batchId: string): Promise<{ batch: BatchView; items: BatchItemView[] }> {
  const page = await batchPage(deps, sessionId, batchId, { offset: 0, limit: 1_000_000 });
  return { batch: page.batch, items: page.items };
}

/** The session's batches, newest last, each with its counts: a reloaded page finds the one still running. */
export async function sessionBatches(deps: BatchDeps, sessionId: string): Promise<Array<{ batch: BatchView; progress: BatchProgress }>> {
  const rows = await batchesOfSession(deps.db, sessionId);
  return Promise.all(rows.map(async (r) => (await deps.batches.view(r.id))!));
}

/** A batch's results as a file to download: CSV (one row per file) or JSON (the batch and all its items). */
export async function batchExport(
  deps: BatchDeps,
  sessionId: string,
  batchId: string,
  format: "csv" | "json",
): Promise<{ body: string; contentType: string; filename: string }> {
  const { batch, items } = await allItems(deps, sessionId, batchId);
  const filename = `${batch.functionName}-batch-${batch.id.slice(0, 8)}.${format}`;
  return format === "csv"
    ? { body: batchCsv(items, fileUrl), contentType: "text/csv; charset=utf-8", filename }
    : { body: batchJson(batch, items, fileUrl), contentType: "application/json; charset=utf-8", filename };
}

