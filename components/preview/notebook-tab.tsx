"use client";

import { EmptyState } from "./empty-state";
import { NotebookCell } from "./notebook-cell";
import { useNotebook } from "./use-notebook";

interface NotebookTabProps {
  sessionId: string | null;
  /** Bump to refetch. */
  notebookVersion: number;
  /** Fetch only while the tab is shown. */
  active: boolean;
}

/** The planner's notebook as it ran: every cell with its outputs, and the `.ipynb` to download. */
export function NotebookTab({ sessionId, notebookVersion, active }: NotebookTabProps) {
  const { status, cells, error, retry } = useNotebook(sessionId, notebookVersion, active);
  if (!sessionId) return <EmptyState>No notebook yet — ask a vision question.</EmptyState>;

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p role="status" className="text-xs text-zinc-500 dark:text-zinc-400">
          {status === "loading" ? (cells.length ? "Refreshing the notebook…" : "Loading the notebook…") : cells.length ? `${cells.length} cell${cells.length === 1 ? "" : "s"}` : ""}
        </p>
        <a
          data-testid="download-ipynb"
          href={`/api/sessions/${encodeURIComponent(sessionId)}/notebook`}
          download
          className="rounded-md border border-zinc-300 px-2.5 py-1 text-xs font-medium text-zinc-700 hover:bg-zinc-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 dark:border-zinc-600 dark:text-zinc-200 dark:hover:bg-zinc-800"
        >
          Download .ipynb
        </a>
      </div>
      {status === "error" && (
        <div role="alert" className="flex items-center justify-between gap-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/50 dark:text-red-200">
          <span>Could not load the notebook. {error}</span>
          <button
            type="button"
            onClick={retry}
            className="rounded-md border border-red-300 px-2 py-1 text-xs font-medium hover:bg-red-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-500 dark:border-red-800 dark:hover:bg-red-900"
          >
            Retry
          </button>
        </div>
      )}
      {status === "ready" && cells.length === 0 && <EmptyState>No cells yet — the planner&apos;s code will appear here as it runs.</EmptyState>}
      {cells.length > 0 && (
        <ol className="flex flex-col gap-4" aria-label="Notebook cells" aria-busy={status === "loading"}>
          {cells.map((c) => (
            <NotebookCell key={c.id} cell={c} />
          ))}
        </ol>
      )}
    </div>
  );
}
