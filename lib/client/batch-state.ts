import type { BatchEvent, BatchItemView, BatchProgress, BatchView } from "@/lib/protocol/batches";

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
    const row = items[event.idx];
    if (row) items[event.idx] = { ...row, status: "running" };
  }
  return { batch: event.batch, progress: event.progress, items };
}

/** Rows of a fetched page laid over the state (the page is newer for rows it holds, unless an event already finished them). */
export function withPage(state: BatchState, page: readonly BatchItemView[]): BatchState {
  const items = [...state.items];
  for (const row of page) {
    const held = items[row.idx];
    if (!held || held.status === "pending" || held.status === "running") items[row.idx] = row;
  }
  return { ...state, items };
}
