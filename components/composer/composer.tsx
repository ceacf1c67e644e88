"use client";

import { useRef, useState, type ClipboardEvent, type KeyboardEvent } from "react";
import type { Attachment } from "@/components/app/use-chat-actions";
import { ACCEPT_ATTRIBUTE, checkUpload } from "@/lib/client/upload-rules";
import { AttachmentChip } from "./attachment-chip";

interface ComposerProps {
  attachments: Attachment[];
  running: boolean;
  waitingForAnswer: boolean;
  maxUploadBytes: number;
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

  const take = (files: File[]) => {
    const ok: File[] = [];
    for (const f of files) {
      const problem = checkUpload(f, p.maxUploadBytes);
      if (problem) p.onRefused(f, problem);
      else ok.push(f);
    }
    if (ok.length) p.onFiles(ok);
  };

  const submit = async () => {
    const hasReady = p.attachments.some((a) => a.status === "ready");
    if (sending || (!text.trim() && !hasReady)) return;
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
      className="border-t border-zinc-200 p-3 dark:border-zinc-800"
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
      {p.attachments.length > 0 && (
        <div className="mb-2 flex flex-wrap gap-2" aria-label="Attachments">
          {p.attachments.map((a) => (
            <AttachmentChip key={a.key} item={a} onRemove={() => p.onRemove(a.key)} />
          ))}
        </div>
      )}
      <div className="flex items-end gap-2">
        <input
          ref={input}
          type="file"
          multiple
          accept={ACCEPT_ATTRIBUTE}
          className="sr-only"
          aria-label="Attach images or videos"
          data-testid="file-input"
          onChange={(e) => {
            take([...(e.target.files ?? [])]);
            e.target.value = "";
          }}
        />
        <button
          type="button"
          onClick={() => input.current?.click()}
          className="rounded-md border border-zinc-300 px-3 py-2 text-sm hover:bg-zinc-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:border-zinc-700 dark:hover:bg-zinc-800"
        >
          Attach
        </button>
        <label htmlFor="composer-text" className="sr-only">
          {p.waitingForAnswer ? "Your answer" : "Ask about your images"}
        </label>
        <textarea
          id="composer-text"
          data-testid="composer-text"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          rows={Math.min(6, Math.max(1, text.split("\n").length))}
          placeholder={p.waitingForAnswer ? "Type your answer…" : "Ask a vision question — drop images here (Enter to send, Shift+Enter for a new line)"}
          className="min-h-10 flex-1 resize-none rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:border-zinc-700 dark:bg-zinc-900"
        />
        {p.running && !p.waitingForAnswer ? (
          <button
            type="button"
            onClick={p.onStop}
            data-testid="stop"
            className="rounded-md bg-red-600 px-4 py-2 text-sm font-medium text-white hover:bg-red-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-400"
          >
            Stop
          </button>
        ) : (
          <button
            type="submit"
            disabled={sending}
            data-testid="send"
            className="rounded-md bg-sky-600 px-4 py-2 text-sm font-medium text-white hover:bg-sky-700 disabled:opacity-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-400"
          >
            Send
          </button>
        )}
      </div>
    </form>
  );
}
