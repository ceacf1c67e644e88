"use client";

import type { ResultImage } from "@/lib/client/preview-data";
import { EmptyState } from "./empty-state";

/** The run's final visualisation, full width; clicking opens the original. */
export function ResultTab({ result }: { result: ResultImage | null }) {
  if (!result) {
    return <EmptyState>No result yet — the planner&apos;s final visualisation will appear here.</EmptyState>;
  }
  return (
    <figure className="flex flex-col gap-2">
      <a
        href={result.url}
        target="_blank"
        rel="noopener noreferrer"
        className="focus-ring block overflow-hidden rounded-lg border"
        title="Open the full-size image in a new tab"
      >
        {/* eslint-disable-next-line @next/next/no-img-element -- a session file served by the API, any size */}
        <img data-testid="result-image" src={result.url} alt="The final visualisation" className="block h-auto w-full" />
        <span className="sr-only"> (opens in a new tab)</span>
      </a>
      <figcaption data-testid="result-caption" className="text-sm text-muted-foreground">{result.caption}</figcaption>
    </figure>
  );
}
