"use client";

import { useMemo } from "react";
import { cn } from "@/components/ui/cn";
import { codeDiff, diffCounts } from "@/lib/client/code-diff";

const ROW_STYLE = {
  same: "",
  added: "bg-emerald-500/15",
  removed: "bg-rose-500/15",
} as const;

const SIGN = { same: " ", added: "+", removed: "−" } as const;

/** Two versions of a function, line by line: removed lines red, added lines green. */
export function CodeDiffView({ before, after, label }: { before: string; after: string; label: string }) {
  const rows = useMemo(() => codeDiff(before, after), [before, after]);
  const counts = diffCounts(rows);
  return (
    <figure className="flex flex-col gap-1">
      <figcaption className="text-xs text-muted-foreground" data-testid="diff-counts">
        {counts.added === 0 && counts.removed === 0 ? "No changes." : `${counts.added} added, ${counts.removed} removed`}
      </figcaption>
      <div role="table" aria-label={label} className="max-h-[40vh] overflow-auto rounded-md border font-mono text-xs">
        {rows.map((row, i) => (
          <div role="row" key={i} data-kind={row.kind} className={cn("flex whitespace-pre", ROW_STYLE[row.kind])}>
            <span role="cell" className="w-8 shrink-0 select-none pr-1 text-right text-muted-foreground">{row.oldLine ?? ""}</span>
            <span role="cell" className="w-8 shrink-0 select-none pr-1 text-right text-muted-foreground">{row.newLine ?? ""}</span>
            <span role="cell" aria-label={row.kind === "same" ? undefined : row.kind} className="w-4 shrink-0 select-none text-center">{SIGN[row.kind]}</span>
            <span role="cell">{row.text}</span>
          </div>
        ))}
      </div>
    </figure>
  );
}
