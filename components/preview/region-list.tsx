"use client";

import type { Polygon } from "@/lib/client/polygons";
import { regionColor } from "./region-colors";

interface RegionListProps {
  polygons: Polygon[];
  /** The image on screen; regions drawn on other images say which. */
  currentUrl: string | null;
  onDelete: (id: number) => void;
  onClear: () => void;
}

/** The drawn regions, which go with the next message; each can be deleted. */
export function RegionList({ polygons, currentUrl, onDelete, onClear }: RegionListProps) {
  if (polygons.length === 0) return null;
  return (
    <section aria-label="Regions" className="flex flex-col gap-2 rounded-md border border-zinc-200 p-3 dark:border-zinc-700">
      <div className="flex items-center justify-between gap-2">
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          <span className="font-semibold">
            {polygons.length} region{polygons.length === 1 ? "" : "s"}
          </span>{" "}
          — sent with your next message
        </p>
        <button
          type="button"
          onClick={onClear}
          className="rounded-md px-2 py-1 text-xs font-medium text-red-700 hover:bg-red-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-500 dark:text-red-300 dark:hover:bg-red-950/50"
        >
          Clear all
        </button>
      </div>
      <ul data-testid="region-list" className="flex flex-col gap-1">
        {polygons.map((p) => (
          <li key={p.id} className="flex items-center gap-2 text-sm">
            <span aria-hidden="true" className="h-3 w-3 shrink-0 rounded-sm" style={{ backgroundColor: regionColor(p.id) }} />
            <span className="min-w-0 flex-1 truncate text-zinc-800 dark:text-zinc-100" title={p.name}>
              {p.name}
              <span className="text-zinc-500 dark:text-zinc-400">
                {" "}
                · {p.points.length} corners
                {p.imageUrl && p.imageUrl !== currentUrl && p.imageName ? ` · on ${p.imageName}` : ""}
              </span>
            </span>
            <button
              type="button"
              onClick={() => onDelete(p.id)}
              aria-label={`Delete region ${p.name}`}
              className="rounded-md px-2 py-0.5 text-xs text-zinc-600 hover:bg-zinc-100 hover:text-red-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:hover:text-red-300"
            >
              Delete
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
