import type { BatchEvent, BatchItemView, BatchProgress, BatchView } from "@/lib/foundation/protocol/batches";

/** What the batch panel shows: the batch, its progress, and its rows by index. */
export interface BatchState {
  batch: BatchView;
  progress: BatchProgress;
  items: BatchItemView[];
}

/**
 * Folds a live `batch` event into the panel's state. Events carry the whole
 * batch view, so a missed one loses nothing but rows; rows come from the page
 * fetched over HTTP and from item events. Events of another batch start over
 * with that batch (the newest one is shown). Pure, so it is unit-tested.
 */
export function applyBatchEvent(state: BatchState | null, event: BatchEvent): BatchState {
  const same = state?.batch.id === event.batch.id;
  const items = same ? [...state!.items] : [];
  if (event.type === "item_finished") {
    items[event.item.idx] = event.item;
  } else if (event.type === "item_started") {
    // A row not fetched yet is held as a placeholder, so a page read before the event cannot undo it.
    const row = items[event.idx] ?? placeholder(event.idx);
    items[event.idx] = { ...row, status: "running" };
  }
  return { batch: event.batch, progress: event.progress, items };
}

const RANK: Record<BatchItemView["status"], number> = { pending: 0, running: 1, done: 2, failed: 2, cancelled: 2 };

function placeholder(idx: number): BatchItemView {
  return { idx, fileName: "", uploadId: null, status: "pending", result: null, stdout: null, seconds: null, error: null, overlayFileId: null, finishedAt: null };
}

/**
 * Rows of a fetched page laid over the state. A row only moves forward
 * (pending → running → finished): a page read before an event arrived must
 * not take a row back.
 */
export function withPage(state: BatchState, page: readonly BatchItemView[]): BatchState {
  const items = [...state.items];
  for (const row of page) {
    const held = items[row.idx];
    if (!held || RANK[row.status] > RANK[held.status]) items[row.idx] = row;
    else if (RANK[held.status] === 2) continue;
    else items[row.idx] = { ...row, status: held.status };
  }
  return { ...state, items };
}
