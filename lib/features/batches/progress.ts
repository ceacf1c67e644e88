import type { BatchCounts, BatchProgress } from "@/lib/foundation/protocol/batches";

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

/**
 * What a running batch waits for before its first item finishes, instead of "estimating time
 * left…" for 45 s (issue #29): its lanes take kernels (a cold start each when none is ready, a
 * wait when every kernel is taken), then run their first chunk. Items are marked running as a
 * lane begins a chunk, so none running means no lane has a kernel to begin with.
 */
export function firstItemLine(input: { running: number; secondsSoFar: number | null }): string {
  const sofar = input.secondsSoFar !== null && input.secondsSoFar >= 1 ? ` (${Math.floor(input.secondsSoFar)} s so far)` : "";
  if (input.running === 0) return `waiting for a kernel${sofar}…`;
  const what = input.running === 1 ? "the first image" : `the first ${input.running} images`;
  return `starting notebooks and running ${what}${sofar}…`;
}

export function humanSeconds(s: number): string {
  if (s < 60) return `${Math.max(1, Math.round(s))} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  const h = Math.floor(s / 3600);
  return `${h} h ${Math.round((s - h * 3600) / 60)} min`;
}
