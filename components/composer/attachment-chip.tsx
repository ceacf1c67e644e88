"use client";

import type { Attachment } from "@/components/app/use-chat-actions";

/** A file waiting to be sent: thumbnail, state, and a remove button. */
export function AttachmentChip({ item, onRemove }: { item: Attachment; onRemove: () => void }) {
  const isVideo = item.file.type.startsWith("video/");
  return (
    <div
      data-testid="attachment-chip"
      className={`relative flex items-center gap-2 rounded-md border p-1 pr-7 text-xs ${item.status === "failed" ? "border-red-400 bg-red-50 text-red-800 dark:bg-red-950 dark:text-red-200" : "border-zinc-300 dark:border-zinc-700"}`}
    >
      {item.preview && !isVideo ? (
        // eslint-disable-next-line @next/next/no-img-element
        <img src={item.preview} alt="" className="h-10 w-10 rounded object-cover" />
      ) : (
        <span aria-hidden className="flex h-10 w-10 items-center justify-center rounded bg-zinc-200 dark:bg-zinc-800">
          {isVideo ? "▶" : "!"}
        </span>
      )}
      <span className="max-w-40">
        <span className="block truncate font-medium">{item.file.name}</span>
        <span role={item.status === "failed" ? "alert" : undefined}>
          {item.status === "uploading" ? "Uploading…" : item.status === "failed" ? item.error : "Ready"}
        </span>
      </span>
      <button
        type="button"
        onClick={onRemove}
        aria-label={`Remove ${item.file.name}`}
        className="absolute right-1 top-1 rounded px-1 text-zinc-500 hover:bg-zinc-200 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:hover:bg-zinc-700"
      >
        ×
      </button>
    </div>
  );
}
