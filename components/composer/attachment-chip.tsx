"use client";

import { CircleAlert, Loader2, Play, X } from "lucide-react";
import type { Attachment } from "@/components/app/use-chat-actions";
import { cn } from "@/components/ui/cn";
import { IconButton } from "@/components/ui/icon-button";

/** A file waiting to be sent: thumbnail, state, and a remove button. */
export function AttachmentChip({ item, onRemove }: { item: Attachment; onRemove: () => void }) {
  const isVideo = item.file.type.startsWith("video/");
  const failed = item.status === "failed";
  return (
    <div
      data-testid="attachment-chip"
      className={cn(
        "relative flex items-center gap-2 rounded-lg border p-1 pr-8 text-xs",
        failed ? "border-danger-border bg-danger-soft text-danger-soft-foreground" : "bg-muted/50",
      )}
    >
      {item.preview && !isVideo ? (
        // eslint-disable-next-line @next/next/no-img-element
        <img src={item.preview} alt="" className="size-10 rounded-md object-cover" />
      ) : (
        <span aria-hidden className="flex size-10 items-center justify-center rounded-md bg-muted">
          {isVideo ? <Play className="size-4" /> : <CircleAlert className="size-4" />}
        </span>
      )}
      <span className="max-w-40">
        <span className="block truncate font-medium">{item.file.name}</span>
        <span role={failed ? "alert" : undefined} className={cn("inline-flex items-center gap-1", !failed && "text-muted-foreground")}>
          {item.status === "uploading" && <Loader2 aria-hidden="true" className="size-3 motion-safe:animate-spin" />}
          {item.status === "uploading" ? "Uploading…" : failed ? item.error : "Ready"}
        </span>
      </span>
      <IconButton label={`Remove ${item.file.name}`} tooltip="Remove" size="icon-xs" onClick={onRemove} className="absolute top-1 right-1 text-muted-foreground">
        <X aria-hidden="true" />
      </IconButton>
    </div>
  );
}
