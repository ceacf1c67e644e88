"use client";

import { useState } from "react";
import { isSafeImageUrl } from "@/lib/client/message-parts";

/** `/api/files/<id>` → its thumbnail variant, keeping any existing query. */
function thumbUrl(url: string): string {
  return `${url}${url.includes("?") ? "&" : "?"}variant=thumb`;
}

export interface MediaThumbnailProps {
  url: string;
  /** Alt text; also the fallback label when the file has no thumbnail (a video, say). */
  label: string;
}

/** A thumbnail that links to the full file; falls back to a text link when no thumbnail exists. */
export function MediaThumbnail({ url, label }: MediaThumbnailProps) {
  const [broken, setBroken] = useState(false);
  if (!isSafeImageUrl(url)) return null;
  return (
    <a
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={`${label} (open full size)`}
      className="focus-ring block overflow-hidden rounded-lg border bg-muted"
    >
      {broken ? (
        <span className="flex size-20 items-center justify-center p-1 text-center text-xs underline">{label}</span>
      ) : (
        <img src={thumbUrl(url)} alt={label} loading="lazy" onError={() => setBroken(true)} className="size-20 object-cover" />
      )}
    </a>
  );
}
