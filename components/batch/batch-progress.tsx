"use client";

import { useEffect, useState } from "react";
import { firstItemLine, progressLine } from "@/lib/features/batches/progress";
import type { BatchState } from "@/lib/client/batch-state";

/** Now, once a second while `on` (the seconds a batch has waited for its first item). */
function useTicking(on: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!on) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [on]);
  return now;
}

/** The bar and the words under it: done / failed / left, speed, time left. */
export function BatchProgressBar({ state }: { state: BatchState }) {
  const { batch, progress } = state;
  const { done, failed, cancelled } = batch.counts;
  const pct = batch.total === 0 ? 100 : Math.round((progress.finished / batch.total) * 100);
  const beforeFirst = batch.status === "running" && progress.finished === 0 && progress.left > 0;
  const now = useTicking(beforeFirst);
  const since = batch.startedAt ?? batch.createdAt;
  const secondsSoFar = Number.isFinite(Date.parse(since)) ? Math.max(0, (now - Date.parse(since)) / 1000) : null;
  const running = beforeFirst ? firstItemLine({ running: batch.counts.running, secondsSoFar }) : progressLine(progress);
  const status = batch.status === "running" ? running : batch.status === "cancelled" ? "Cancelled" : "Finished";
  return (
    <div className="flex flex-col gap-1" data-testid="batch-progress">
      <div role="progressbar" aria-label="Batch progress" aria-valuemin={0} aria-valuemax={batch.total} aria-valuenow={progress.finished} className="h-2 w-full overflow-hidden rounded bg-muted">
        <div className="h-full bg-primary transition-all" style={{ width: `${pct}%` }} />
      </div>
      <p className="text-xs text-muted-foreground">
        <span data-testid="batch-done">{done} done</span> · <span data-testid="batch-failed">{failed} failed</span>
        {cancelled > 0 ? ` · ${cancelled} cancelled` : ""} · <span data-testid="batch-left">{progress.left} left</span>
        {status ? ` · ${status}` : ""}
      </p>
    </div>
  );
}
