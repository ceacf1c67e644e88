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
        className="block overflow-hidden rounded-lg border border-zinc-200 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 dark:border-zinc-700"
        title="Open the full-size image in a new tab"
      >
        {/* eslint-disable-next-line @next/next/no-img-element -- a session file served by the API, any size */}
        <img data-testid="result-image" src={result.url} alt="The final visualisation" className="block h-auto w-full" />
        <span className="sr-only"> (opens in a new tab)</span>
      </a>
      <figcaption className="text-sm text-zinc-600 dark:text-zinc-400">{result.caption}</figcaption>
    </figure>
  );
}
