"use client";

import { useCallback, useEffect, useState } from "react";
import type { BatchEvent, BatchItemView, BatchProgress, BatchView } from "@/lib/foundation/protocol/batches";
import { applyBatchEvent, withPage, type BatchState } from "./batch-state";
import { listenToBatches } from "./session-batch-events";

const finishedOf = (b: BatchView) => b.counts.done + b.counts.failed + b.counts.cancelled;

async function getJson<T>(url: string): Promise<T | null> {
  const res = await fetch(url, { credentials: "same-origin" }).catch(() => null);
  return res && res.ok ? ((await res.json()) as T) : null;
}

/**
 * The session's newest batch, live: read over HTTP when the page opens (so a
 * reload finds a running batch), then kept current by the socket's `batch`
 * events. `reload` reads it again (after starting one, after a reconnect).
 */
export function useBatch(sessionId: string | null): { state: BatchState | null; reload: () => void } {
  const [state, setState] = useState<BatchState | null>(null);
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);

  // Events come through the session's one socket (use-session-stream), so none is missed while a read is under way.
  useEffect(() => {
    setState(null);
    if (!sessionId) return;
    return listenToBatches(sessionId, {
      onBatch: (e: BatchEvent) => setState((s) => applyBatchEvent(s, e)),
      // After a reconnect, read the state again: events sent meanwhile are gone.
      onReconnect: reload,
    });
  }, [sessionId, reload]);

  useEffect(() => {
    if (!sessionId) return;
    let live = true;
    const read = async () => {
      const list = await getJson<{ batches: Array<{ batch: BatchView; progress: BatchProgress }> }>(`/api/sessions/${sessionId}/batches`);
      const newest = list?.batches.at(-1);
      if (!newest || !live) return;
      const page = await getJson<{ batch: BatchView; progress: BatchProgress; items: BatchItemView[] }>(`/api/sessions/${sessionId}/batches/${newest.batch.id}?limit=1000`);
      if (!page || !live) return;
      setState((s) => {
        const same = s?.batch.id === page.batch.id;
        // Whichever is further along wins: the read, or the events that arrived while it was under way.
        const pageNewer = !same || page.batch.status !== "running" || finishedOf(page.batch) >= finishedOf(s!.batch);
        const head = pageNewer ? { batch: page.batch, progress: page.progress } : { batch: s!.batch, progress: s!.progress };
        return withPage({ ...head, items: same ? s!.items : [] }, page.items);
      });
    };
    void read();
    return () => {
      live = false;
    };
  }, [sessionId, version]);

  return { state, reload };
}
