"use client";

import { MAX_SCALE, MIN_SCALE } from "@/lib/client/polygons";

interface ZoomControlsProps {
  scale: number;
  onZoomIn: () => void;
  onZoomOut: () => void;
  onReset: () => void;
}

const BUTTON =
  "h-7 min-w-7 rounded-md border border-zinc-300 px-2 text-sm font-medium text-zinc-700 hover:bg-zinc-100 disabled:cursor-not-allowed disabled:opacity-40 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 dark:border-zinc-600 dark:text-zinc-200 dark:hover:bg-zinc-800";

/** Zoom out / level (resets) / zoom in. */
export function ZoomControls({ scale, onZoomIn, onZoomOut, onReset }: ZoomControlsProps) {
  return (
    <div role="group" aria-label="Zoom" className="flex items-center gap-1">
      <button type="button" className={BUTTON} onClick={onZoomOut} disabled={scale <= MIN_SCALE} aria-label="Zoom out">
        −
      </button>
      <button type="button" className={`${BUTTON} tabular-nums`} onClick={onReset} disabled={scale <= MIN_SCALE} aria-label={`Reset zoom (now ${Math.round(scale * 100)}%)`}>
        {Math.round(scale * 100)}%
      </button>
      <button type="button" className={BUTTON} onClick={onZoomIn} disabled={scale >= MAX_SCALE} aria-label="Zoom in">
        +
      </button>
    </div>
  );
}
