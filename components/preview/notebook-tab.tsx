"use client";

import { Download, RotateCcw } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
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
        <p role="status" className="text-xs text-muted-foreground">
          {status === "loading" ? (cells.length ? "Refreshing the notebook…" : "Loading the notebook…") : cells.length ? `${cells.length} cell${cells.length === 1 ? "" : "s"}` : ""}
        </p>
        <Button asChild variant="outline" size="xs">
          <a data-testid="download-ipynb" href={`/api/sessions/${encodeURIComponent(sessionId)}/notebook`} download>
            <Download aria-hidden="true" />
            Download .ipynb
          </a>
        </Button>
      </div>
      {status === "error" && (
        <Alert>
          <div className="flex items-center justify-between gap-2">
            <span>Could not load the notebook. {error}</span>
            <Button variant="outline" size="xs" onClick={retry}>
              <RotateCcw aria-hidden="true" />
              Retry
            </Button>
          </div>
        </Alert>
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
