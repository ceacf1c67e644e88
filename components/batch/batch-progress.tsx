"use client";

import { progressLine } from "@/lib/batches/progress";
import type { BatchState } from "@/lib/client/batch-state";

/** The bar and the words under it: done / failed / left, speed, time left. */
export function BatchProgressBar({ state }: { state: BatchState }) {
  const { batch, progress } = state;
  const { done, failed, cancelled } = batch.counts;
  const pct = batch.total === 0 ? 100 : Math.round((progress.finished / batch.total) * 100);
  const status = batch.status === "running" ? progressLine(progress) : batch.status === "cancelled" ? "Cancelled" : "Finished";
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
