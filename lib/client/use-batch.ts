"use client";

import { useCallback, useEffect, useState } from "react";
import { io, type Socket } from "socket.io-client";
import type { BatchEvent, BatchItemView, BatchProgress, BatchView } from "@/lib/protocol/batches";
import { applyBatchEvent, withPage, type BatchState } from "./batch-state";

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

  useEffect(() => {
    setState(null);
    if (!sessionId) return;
    let live = true;
    const socket: Socket = io({ auth: { sessionId }, transports: ["websocket", "polling"] });
    socket.on("batch", (e: BatchEvent) => live && setState((s) => applyBatchEvent(s, e)));
    const read = async () => {
      const list = await getJson<{ batches: Array<{ batch: BatchView; progress: BatchProgress }> }>(`/api/sessions/${sessionId}/batches`);
      const newest = list?.batches.at(-1);
      if (!newest || !live) return;
      const page = await getJson<{ batch: BatchView; progress: BatchProgress; items: BatchItemView[] }>(`/api/sessions/${sessionId}/batches/${newest.batch.id}?limit=1000`);
      if (!page || !live) return;
      setState((s) => {
        const base = s && s.batch.id === page.batch.id ? s : { batch: page.batch, progress: page.progress, items: [] };
        return withPage(s && s.batch.id === page.batch.id ? base : { ...base, batch: page.batch, progress: page.progress }, page.items);
      });
    };
    socket.on("connect", () => void read());
    void read();
    return () => {
      live = false;
      socket.disconnect();
    };
  }, [sessionId, version]);

  return { state, reload };
}
