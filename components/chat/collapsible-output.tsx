"use client";

import { useId, useState } from "react";

export type OutputTone = "plain" | "warning" | "error";

export interface CollapsibleOutputProps {
  /** Visible section name ("Output", "stderr", "Error"): the tone is never the only cue. */
  label: string;
  text: string;
  tone?: OutputTone;
  /** Lines shown while collapsed. */
  previewLines?: number;
  /** Characters shown while collapsed (one huge line counts too). */
  previewChars?: number;
  /** Which end a collapsed view keeps: the start for output, the end for a traceback (its cause is last). */
  keep?: "start" | "end";
}

const TONES: Record<OutputTone, string> = {
  plain: "border-zinc-200 bg-zinc-50 text-zinc-800 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-200",
  warning: "border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-100",
  error: "border-red-300 bg-red-50 text-red-950 dark:border-red-800 dark:bg-red-950/40 dark:text-red-100",
};

/**
 * Monospace kernel output. A cell can print thousands of lines; showing them
 * all would bury the conversation, so long output starts collapsed to its
 * beginning with a "Show all" toggle.
 */
export function CollapsibleOutput({ label, text, tone = "plain", previewLines = 12, previewChars = 2000, keep = "start" }: CollapsibleOutputProps) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const lines = text.split("\n");
  // A little slack so "Show all" never hides just one or two lines.
  const long = lines.length > previewLines + 3 || text.length > previewChars * 1.2;
  const preview =
    keep === "start"
      ? `${lines.slice(0, previewLines).join("\n").slice(0, previewChars)}\n…`
      : `…\n${lines.slice(-previewLines).join("\n").slice(-previewChars)}`;
  return (
    <section className="my-2" aria-label={label}>
      <div className="mb-0.5 flex items-center justify-between gap-2">
        <h4 className="text-xs font-semibold text-zinc-600 dark:text-zinc-400">{label}</h4>
        {long && (
          <button
            type="button"
            aria-expanded={open}
            aria-controls={id}
            onClick={() => setOpen((o) => !o)}
            className="rounded px-1 text-xs text-blue-700 underline hover:text-blue-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-400"
          >
            {open ? "Show less" : `Show all (${lines.length} lines)`}
          </button>
        )}
      </div>
      <pre
        id={id}
        tabIndex={0}
        className={`max-h-[40rem] overflow-auto rounded border p-2 font-mono text-xs leading-relaxed whitespace-pre-wrap break-words focus-visible:outline-2 focus-visible:outline-blue-600 ${TONES[tone]}`}
      >
        {open || !long ? text : preview}
      </pre>
    </section>
  );
}
