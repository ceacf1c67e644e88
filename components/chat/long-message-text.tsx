"use client";

import { useId, useState } from "react";
import { collapsedPreview } from "@/lib/client/long-text";
import { formatCount } from "@/lib/foundation/protocol/message-limit";

/**
 * The person's message text; a long one starts collapsed to its beginning with "Show more", so a
 * pasted page does not bury the conversation. The toggle sits inside the bubble, under the text.
 */
export function LongMessageText({ text }: { text: string }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const preview = collapsedPreview(text);
  return (
    <>
      <span id={id} data-testid="message-text" data-collapsed={preview !== null && !open ? "true" : undefined}>
        {preview === null || open ? text : preview}
      </span>
      {preview !== null && (
        <button
          type="button"
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen((o) => !o)}
          className="focus-ring mt-1 block rounded-sm text-sm font-medium underline underline-offset-2 opacity-90 hover:opacity-100"
        >
          {open ? "Show less" : `Show more (${formatCount(text.length)} characters)`}
        </button>
      )}
    </>
  );
}
