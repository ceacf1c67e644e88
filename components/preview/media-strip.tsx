"use client";

import { Play } from "lucide-react";
import { cn } from "@/components/ui/cn";
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
              className={cn(
                "focus-ring relative block size-16 cursor-pointer overflow-hidden rounded-md border-2 bg-muted",
                selected ? "border-primary" : "border-transparent hover:border-input",
              )}
            >
              <span className="sr-only">
                {item.name} ({item.origin === "upload" ? `uploaded ${item.kind}` : "generated image"})
              </span>
              {item.kind === "image" || item.thumbnailUrl ? (
                // eslint-disable-next-line @next/next/no-img-element -- session thumbnails from the files API
                <img src={item.thumbnailUrl ?? item.url} alt="" loading="lazy" className="h-full w-full object-cover" />
              ) : null}
              {item.kind === "video" && (
                <span aria-hidden="true" className="absolute inset-0 flex items-center justify-center text-white drop-shadow">
                  <Play className="size-5 fill-current" />
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
