"use client";

import { useState } from "react";
import type { StreamedMessage } from "@/lib/protocol/agent-message";

export interface ErrorCardProps {
  /** An `error_observation`: already a readable sentence from the server. */
  message: StreamedMessage;
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
      <div data-testid="error-card" className="rounded-lg border border-red-300 bg-red-50 p-3 text-red-950 dark:border-red-800 dark:bg-red-950/40 dark:text-red-100">
        <h3 className="text-sm font-semibold">
          <span aria-hidden="true">⚠ </span>Error
        </h3>
        <p className="mt-1 text-sm whitespace-pre-wrap break-words">{message.content || "Something went wrong."}</p>
        {retryable && (
          <button
            type="button"
            onClick={retry}
            disabled={busy}
            className="mt-2 rounded-md bg-red-700 px-3 py-1 text-sm font-medium text-white hover:bg-red-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700 disabled:cursor-not-allowed disabled:opacity-60 dark:bg-red-600 dark:hover:bg-red-500"
          >
            {busy ? "Retrying…" : "Retry"}
          </button>
        )}
      </div>
    </article>
  );
}
