"use client";

import { ArrowUp, Paperclip, Square } from "lucide-react";
import { useEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent } from "react";
import type { Attachment } from "@/components/app/use-chat-actions";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/textarea";
import { ACCEPT_ATTRIBUTE, checkUpload } from "@/lib/client/upload-rules";
import { lengthNote } from "@/lib/foundation/protocol/message-limit";
import { AttachmentChip } from "./attachment-chip";
import { LengthCounter } from "./length-counter";

/** Text put into the composer from outside (the "Try an example" button); a new id applies it again. */
export interface ComposerDraft {
  text: string;
  id: number;
}

interface ComposerProps {
  attachments: Attachment[];
  running: boolean;
  waitingForAnswer: boolean;
  maxUploadBytes: number;
  draft?: ComposerDraft | null;
  onFiles: (files: File[]) => void;
  onRefused: (file: File, reason: string) => void;
  onRemove: (key: string) => void;
  /** Resolves true when sent; the text is kept when it was not. */
  onSend: (text: string) => Promise<boolean>;
  onStop: () => void;
}

/**
 * Text with Enter to send and Shift+Enter for a new line (never while an IME
 * is composing), files by button, paste or drop (checked before upload), and
 * Stop while a run is active.
 */
export function Composer(p: ComposerProps) {
  const [text, setText] = useState("");
  const [sending, setSending] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const box = useRef<HTMLTextAreaElement>(null);

  // A draft from outside replaces the text once (adjusting state while rendering, as React recommends).
  const [draftId, setDraftId] = useState(p.draft?.id);
  if (p.draft && p.draft.id !== draftId) {
    setDraftId(p.draft.id);
    setText(p.draft.text);
  }
  useEffect(() => {
    if (draftId !== undefined) box.current?.focus();
  }, [draftId]);

  const take = (files: File[]) => {
    const ok: File[] = [];
    for (const f of files) {
      const problem = checkUpload(f, p.maxUploadBytes);
      if (problem) p.onRefused(f, problem);
      else ok.push(f);
    }
    if (ok.length) p.onFiles(ok);
  };

  // The limit is shown while typing; past it Send is off, with the reason beside it.
  const length = lengthNote(text.trim().length);
  const tooLong = length?.over === true;

  const submit = async () => {
    const hasReady = p.attachments.some((a) => a.status === "ready");
    if (sending || tooLong || (!text.trim() && !hasReady)) return;
    setSending(true);
    const sent = await p.onSend(text.trim());
    setSending(false);
    if (sent) setText("");
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing && e.keyCode !== 229) {
      e.preventDefault();
      void submit();
    }
  };

  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = [...e.clipboardData.files];
    if (files.length) {
      e.preventDefault();
      take(files);
    }
  };

  return (
    <form
      aria-label="Message"
      className="px-3 pt-1 pb-3 md:px-4 md:pb-4"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => {
        e.preventDefault();
        take([...e.dataTransfer.files]);
      }}
    >
      <div className="mx-auto max-w-3xl rounded-xl border border-input bg-card shadow-sm transition-shadow focus-within:border-ring focus-within:ring-2 focus-within:ring-ring/20">
        {p.attachments.length > 0 && (
          <div className="flex flex-wrap gap-2 px-3 pt-3" aria-label="Attachments">
            {p.attachments.map((a) => (
              <AttachmentChip key={a.key} item={a} onRemove={() => p.onRemove(a.key)} />
            ))}
          </div>
        )}
        <label htmlFor="composer-text" className="sr-only">
          {p.waitingForAnswer ? "Your answer" : "Ask about your images"}
        </label>
        <Textarea
          ref={box}
          bare
          id="composer-text"
          data-testid="composer-text"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          rows={Math.min(6, Math.max(1, text.split("\n").length))}
          placeholder={p.waitingForAnswer ? "Type your answer…" : "Ask a vision question, or drop images here"}
          aria-describedby={length ? "composer-hint composer-length" : "composer-hint"}
          aria-invalid={tooLong || undefined}
          className="block min-h-11 px-3.5 pt-3 pb-1"
        />
        {length && <LengthCounter id="composer-length" note={length} />}
        <div className="flex items-center gap-2 px-2 pb-2">
          <input
            ref={input}
            type="file"
            multiple
            accept={ACCEPT_ATTRIBUTE}
            // Out of the tab order and the accessibility tree: the visible Attach button opens it.
            hidden
            tabIndex={-1}
            data-testid="file-input"
            onChange={(e) => {
              take([...(e.target.files ?? [])]);
              e.target.value = "";
            }}
          />
          <Button variant="ghost" size="sm" aria-label="Attach images or videos" onClick={() => input.current?.click()} className="text-muted-foreground hover:text-foreground">
            <Paperclip aria-hidden="true" />
            Attach
          </Button>
          <p id="composer-hint" className="min-w-0 flex-1 truncate text-right text-xs text-muted-foreground">
            <span className="hidden sm:inline">
              <kbd className="font-sans font-medium">Enter</kbd> to send ·{" "}
            </span>
            <kbd className="font-sans font-medium">Shift+Enter</kbd> for a new line
          </p>
          {p.running && !p.waitingForAnswer ? (
            <Button variant="destructive" size="sm" onClick={p.onStop} data-testid="stop">
              <Square aria-hidden="true" className="fill-current" />
              Stop
            </Button>
          ) : (
            <Button type="submit" size="sm" disabled={sending || tooLong} title={length?.reason ?? undefined} data-testid="send">
              <ArrowUp aria-hidden="true" />
              Send
            </Button>
          )}
        </div>
      </div>
    </form>
  );
}
