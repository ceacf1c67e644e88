import type { BatchCounts, BatchProgress } from "@/lib/protocol/batches";

/**
 * Speed and time left of a batch, from its counts and when this server started
 * working on it. Speed counts only items finished since then (`finishedSince`):
 * after a restart the items done before it would otherwise make the batch look
 * fast. Items refused at intake never ran, so they are not counted as speed.
 */
export function batchProgress(input: { counts: BatchCounts; finishedSince: number; elapsedSeconds: number }): BatchProgress {
  const { counts, finishedSince, elapsedSeconds } = input;
  const finished = counts.done + counts.failed + counts.cancelled;
  const left = counts.pending + counts.running;
  const itemsPerSecond = finishedSince > 0 && elapsedSeconds > 0 ? finishedSince / elapsedSeconds : null;
  const secondsLeft = left === 0 ? 0 : itemsPerSecond === null ? null : left / itemsPerSecond;
  return { finished, left, itemsPerSecond, secondsLeft };
}

/** "3.2 images/s", "about 2 min left": the progress line under the bar. */
export function progressLine(p: BatchProgress): string {
  const speed = p.itemsPerSecond === null ? "" : `${p.itemsPerSecond >= 10 ? p.itemsPerSecond.toFixed(0) : p.itemsPerSecond.toFixed(1)} images/s`;
  const left = p.left === 0 ? "" : p.secondsLeft === null ? "estimating time left…" : `about ${humanSeconds(p.secondsLeft)} left`;
  return [speed, left].filter(Boolean).join(" · ");
}

export function humanSeconds(s: number): string {
  if (s < 60) return `${Math.max(1, Math.round(s))} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  const h = Math.floor(s / 3600);
  return `${h} h ${Math.round((s - h * 3600) / 60)} min`;
}
