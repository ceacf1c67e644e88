"use client";

import type { MediaItem } from "@/lib/client/preview-data";

interface MediaStripProps {
  items: MediaItem[];
  selectedUrl: string | null;
  onSelect: (item: MediaItem) => void;
}

/** Thumbnails of the session's media (uploads, then generated pictures); picks the one shown large. */
export function MediaStrip({ items, selectedUrl, onSelect }: MediaStripProps) {
  return (
    <ul aria-label="Session media" className="flex gap-2 overflow-x-auto pb-1">
      {items.map((item) => {
        const selected = item.url === selectedUrl;
        return (
          <li key={item.url} className="shrink-0">
            <button
              type="button"
              aria-pressed={selected}
              title={item.name}
              onClick={() => onSelect(item)}
              className={`relative block h-16 w-16 overflow-hidden rounded-md border-2 bg-zinc-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 focus-visible:ring-offset-1 dark:bg-zinc-800 ${
                selected ? "border-blue-600 dark:border-blue-400" : "border-transparent hover:border-zinc-300 dark:hover:border-zinc-600"
              }`}
            >
              <span className="sr-only">
                {item.name} ({item.origin === "upload" ? `uploaded ${item.kind}` : "generated image"})
              </span>
              {item.kind === "image" || item.thumbnailUrl ? (
                // eslint-disable-next-line @next/next/no-img-element -- session thumbnails from the files API
                <img src={item.thumbnailUrl ?? item.url} alt="" loading="lazy" className="h-full w-full object-cover" />
              ) : null}
              {item.kind === "video" && (
                <span aria-hidden="true" className="absolute inset-0 flex items-center justify-center text-lg text-white drop-shadow">
                  ▶
                </span>
              )}
              {item.origin === "generated" && (
                <span aria-hidden="true" className="absolute bottom-0 left-0 right-0 bg-black/60 text-center text-[10px] leading-4 text-white">
                  generated
                </span>
              )}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
