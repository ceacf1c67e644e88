"use client";

interface RegionToolbarProps {
  drawMode: boolean;
  points: number;
  onToggle: () => void;
  onClose: () => void;
  onUndo: () => void;
  onCancel: () => void;
}

const BUTTON =
  "rounded-md border border-zinc-300 px-2.5 py-1 text-xs font-medium text-zinc-700 hover:bg-zinc-100 disabled:cursor-not-allowed disabled:opacity-40 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 dark:border-zinc-600 dark:text-zinc-200 dark:hover:bg-zinc-800";

/** Draw-regions mode: on/off, and while drawing, close / undo / cancel the current shape. */
export function RegionToolbar({ drawMode, points, onToggle, onClose, onUndo, onCancel }: RegionToolbarProps) {
  return (
    <div role="group" aria-label="Draw regions" className="flex flex-wrap items-center gap-1">
      <button
        type="button"
        aria-pressed={drawMode}
        onClick={onToggle}
        className={`${BUTTON} ${drawMode ? "border-blue-600 bg-blue-600 text-white hover:bg-blue-700 dark:border-blue-500 dark:bg-blue-600 dark:text-white dark:hover:bg-blue-700" : ""}`}
      >
        Draw regions
      </button>
      {drawMode && (
        <>
          <button type="button" className={BUTTON} onClick={onClose} disabled={points < 3}>
            Close shape
          </button>
          <button type="button" className={BUTTON} onClick={onUndo} disabled={points === 0}>
            Undo point
          </button>
          <button type="button" className={BUTTON} onClick={onCancel} disabled={points === 0}>
            Cancel shape
          </button>
          <span className="text-xs text-zinc-500 tabular-nums dark:text-zinc-400" aria-live="polite">
            {points === 0 ? "Click the picture to add corners" : `${points} corner${points === 1 ? "" : "s"}`}
          </span>
        </>
      )}
    </div>
  );
}
