"use client";

import type { NotebookCellView } from "@/lib/client/preview-data";
import { HighlightedCode } from "./highlighted-code";
import { NotebookOutput } from "./notebook-output";

/** A notebook cell: its source (code highlighted, markdown as plain text) and outputs. */
export function NotebookCell({ cell }: { cell: NotebookCellView }) {
  if (cell.kind === "markdown") {
    return (
      <li data-testid="notebook-cell" className="rounded-lg bg-muted p-3 text-sm whitespace-pre-wrap break-words text-muted-foreground">
        {cell.source}
      </li>
    );
  }
  const count = cell.executionCount === null ? " " : String(cell.executionCount);
  return (
    <li data-testid="notebook-cell" className="flex flex-col gap-2">
      <div className="flex gap-2">
        <span className="w-12 shrink-0 pt-3 text-right font-mono text-xs text-link" aria-hidden="true">
          [{count}]:
        </span>
        <HighlightedCode
          code={cell.source}
          label={cell.executionCount === null ? "Code cell" : `Code cell ${cell.executionCount}`}
          className="min-w-0 flex-1 max-h-80"
        />
      </div>
      {cell.outputs.length > 0 && (
        <div className="ml-14 flex min-w-0 flex-col gap-2" aria-label="Output" role="group">
          {cell.outputs.map((o, i) => (
            <NotebookOutput key={i} output={o} />
          ))}
        </div>
      )}
    </li>
  );
}
