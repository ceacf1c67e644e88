"use client";

import { CircleAlert, RotateCcw } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardTitle } from "@/components/ui/card";
import type { Entry } from "@/lib/client/message-parts";

export interface ErrorCardProps {
  /** An error: already a readable sentence from the server. */
  message: Entry<"error">;
  /** Offer Retry (only the latest failure the person has not moved past). */
  retryable: boolean;
  /** May return a promise: the button stays disabled until it settles, so a double click retries once. */
  onRetry(): void;
}

/** A failure the person can see and act on, instead of a silent stop. */
export function ErrorCard({ message, retryable, onRetry }: ErrorCardProps) {
  const [busy, setBusy] = useState(false);
  const retry = () => {
    const result: unknown = onRetry();
    if (result instanceof Promise) {
      setBusy(true);
      result.finally(() => setBusy(false)).catch(() => {});
    }
  };
  return (
    <article
      data-testid={`message-${message.role}`}
      data-seq={message.seq}
      // Announce only the live failure; old ones re-rendered from history stay quiet.
      role={retryable ? "alert" : undefined}
      className="max-w-full"
    >
      <Card tone="danger" data-testid="error-card">
        <CardTitle className="flex items-center gap-1.5">
          <CircleAlert aria-hidden="true" className="size-4" />
          Error
        </CardTitle>
        <p className="mt-1 text-sm whitespace-pre-wrap break-words">{message.item.text || "Something went wrong."}</p>
        {retryable && (
          <Button variant="destructive" size="sm" onClick={retry} disabled={busy} className="mt-2">
            <RotateCcw aria-hidden="true" />
            {busy ? "Retrying…" : "Retry"}
          </Button>
        )}
      </Card>
    </article>
  );
}
