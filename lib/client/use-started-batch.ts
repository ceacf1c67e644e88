"use client";

import { useEffect, useState } from "react";
import { listenToBatches } from "./session-batch-events";

/**
 * The batch this page saw start in the session (its `batch_created` event), whoever started it:
 * the Code tab's dialog or the chat's "run it on all of them". Held by the page, not the batch
 * panel: at phone width the panel lives in the closed preview drawer, where it is not mounted,
 * so the page must notice the start to open the drawer on it. A batch found already there when
 * the page opens is not "started" (nothing moves for it).
 */
export function useStartedBatch(sessionId: string | null): string | null {
  const [started, setStarted] = useState<{ sessionId: string; batchId: string } | null>(null);
  useEffect(() => {
    if (!sessionId) return;
    return listenToBatches(sessionId, {
      onBatch: (e) => {
        if (e.type === "batch_created") setStarted({ sessionId, batchId: e.batch.id });
      },
      onReconnect: () => undefined,
    });
  }, [sessionId]);
  return started && started.sessionId === sessionId ? started.batchId : null;
}
