import type { BatchEvent } from "@/lib/foundation/protocol/batches";

/**
 * Batch events reach the batch panel through the session's one socket
 * (use-session-stream): a second socket per page for the same session made a
 * second connection that kept the first from noticing it was offline.
 */
export interface BatchListener {
  onBatch(event: BatchEvent): void;
  /** The socket connected again: events sent meanwhile are gone, so read the state again. */
  onReconnect(): void;
}

const listeners = new Map<string, Set<BatchListener>>();

export function listenToBatches(sessionId: string, listener: BatchListener): () => void {
  let set = listeners.get(sessionId);
  if (!set) listeners.set(sessionId, (set = new Set()));
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0) listeners.delete(sessionId);
  };
}

export function publishBatchEvent(sessionId: string, event: BatchEvent): void {
  for (const l of listeners.get(sessionId) ?? []) l.onBatch(event);
}

export function publishReconnect(sessionId: string): void {
  for (const l of listeners.get(sessionId) ?? []) l.onReconnect();
}
