"use client";

import { Pencil } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { IconButton } from "@/components/ui/icon-button";
import { Textarea } from "@/components/ui/textarea";
import type { Entry } from "@/lib/client/message-parts";
import { useRedo } from "./redo-context";
import { UserMessage } from "./user-message";

/**
 * The person's message with Edit (while no run is going): the bubble becomes a text box, and
 * Send answers the new words instead; what came after the message is kept as an earlier version.
 */
export function EditableUserMessage({ message }: { message: Entry<"user" | "answer"> }) {
  const { editable, onEdit } = useRedo();
  const [draft, setDraft] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const canEdit = message.item.type === "user" && editable.has(message.seq);

  if (draft !== null && canEdit) {
    const send = async () => {
      if (!draft.trim()) return;
      setBusy(true);
      const ok = await onEdit(message.seq, draft.trim()).finally(() => setBusy(false));
      if (ok) setDraft(null);
    };
    return (
      <form
        data-testid="edit-message"
        className="ml-auto flex w-full max-w-[85%] flex-col gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <Textarea
          aria-label="Edit your message"
          autoFocus
          rows={Math.min(8, Math.max(2, draft.split("\n").length))}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Escape") setDraft(null);
          }}
        />
        <div className="flex justify-end gap-2">
          <Button variant="ghost" size="sm" onClick={() => setDraft(null)} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" size="sm" disabled={busy || !draft.trim()}>
            {busy ? "Sending…" : "Send"}
          </Button>
        </div>
      </form>
    );
  }
  return (
    <div className="group flex flex-col items-end gap-1">
      <UserMessage message={message} />
      {canEdit && (
        <IconButton label="Edit message" data-testid="edit-message-button" size="icon-xs" onClick={() => setDraft(message.item.text)} className="opacity-70 group-hover:opacity-100 focus-visible:opacity-100">
          <Pencil aria-hidden="true" />
        </IconButton>
      )}
    </div>
  );
}
