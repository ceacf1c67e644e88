"use client";

import { useId, useState } from "react";
import { Button } from "@/components/ui/button";

type OutputTone = "plain" | "warning" | "error";

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
  plain: "bg-muted/60 text-foreground",
  warning: "border-warning-border bg-warning-soft text-warning-soft-foreground",
  error: "border-danger-border bg-danger-soft text-danger-soft-foreground",
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
        <h4 className="text-xs font-semibold text-muted-foreground">{label}</h4>
        {long && (
          <Button variant="link" size="xs" aria-expanded={open} aria-controls={id} onClick={() => setOpen((o) => !o)}>
            {open ? "Show less" : `Show all (${lines.length} lines)`}
          </Button>
        )}
      </div>
      <pre
        id={id}
        tabIndex={0}
        className={`focus-ring max-h-[40rem] overflow-auto rounded-md border p-2 font-mono text-xs leading-relaxed whitespace-pre-wrap break-words ${TONES[tone]}`}
      >
        {open || !long ? text : preview}
      </pre>
    </section>
  );
}
