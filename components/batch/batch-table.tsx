"use client";

import type { BatchItemView } from "@/lib/foundation/protocol/batches";

function shown(result: unknown): string {
  if (result === null || result === undefined) return "";
  const text = typeof result === "string" ? result : JSON.stringify(result);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** One row per file: result, time, error, and the overlay the function saved. */
export function BatchTable({ items }: { items: readonly (BatchItemView | undefined)[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-xs" data-testid="batch-table">
        <thead className="text-muted-foreground">
          <tr>
            <th className="p-1">File</th>
            <th className="p-1">Result</th>
            <th className="p-1">Time</th>
            <th className="p-1">Error</th>
            <th className="p-1">Overlay</th>
          </tr>
        </thead>
        <tbody>
          {items.map((it) =>
            it ? (
              <tr key={it.idx} data-testid="batch-row" data-status={it.status} className="border-t align-top">
                <td className="p-1 font-mono">{it.fileName}</td>
                <td className="p-1 font-mono" data-testid="batch-result">{it.status === "done" ? shown(it.result) : it.status === "running" ? "running…" : it.status === "pending" ? "waiting" : ""}</td>
                <td className="p-1">{it.seconds === null ? "" : `${it.seconds.toFixed(2)} s`}</td>
                <td className="p-1 text-destructive" data-testid="batch-error">{it.error ?? ""}</td>
                <td className="p-1">
                  {it.overlayFileId ? (
                    <a href={`/api/files/${it.overlayFileId}`} target="_blank" rel="noreferrer">
                      {/* eslint-disable-next-line @next/next/no-img-element */}
                      <img src={`/api/files/${it.overlayFileId}?variant=thumb`} alt={`Overlay of ${it.fileName}`} className="h-10 w-auto rounded" />
                    </a>
                  ) : null}
                </td>
              </tr>
            ) : null,
          )}
        </tbody>
      </table>
    </div>
  );
}
