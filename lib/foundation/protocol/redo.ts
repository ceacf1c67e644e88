/**
 * Doing a turn again without re-posting the person's message: Retry / Continue (the same run
 * goes on from the step that failed or was stopped), Regenerate (the last message answered
 * again, as a new run), and Edit (a sent message replaced by new words, and answered).
 *
 * The log stays append-only. A `null` observation carrying a `redo` mark records each one; a
 * Regenerate or Edit mark supersedes a range of earlier events, which stay in the log (and in
 * the chat, folded as an earlier version, as ChatGPT keeps them) but no agent sees them again.
 * Pure: the runtime (agents' history) and the chat (folding) read the same ranges.
 */
import { z } from "zod";

/** What a `redo` request asks for (POST /api/sessions/:id/messages `redo`). */
export const RedoRequestSchema = z.discriminatedUnion("kind", [
  /** Retry after a failure, or Continue after Stop: the same run goes on from the step it stopped at. */
  z.strictObject({ kind: z.literal("continue"), runId: z.string().uuid() }),
  /** Answer the person's message `seq` (their latest) again, as a new run. */
  z.strictObject({ kind: z.literal("regenerate"), seq: z.number().int().positive() }),
  /** Replace the person's message `seq` with the request's `content` and answer that: later turns are superseded. */
  z.strictObject({ kind: z.literal("edit"), seq: z.number().int().positive() }),
]);
export type RedoRequest = z.infer<typeof RedoRequestSchema>;

/**
 * The mark in the log. `from` is the person's message a Regenerate or Edit starts from (null
 * for a continue, or for a notebook rebuilt before one). `moved`: the run went on from the log on
 * another instance (or after a restart), its agents rebuilt there (lib/features/runtime/run-rebuild.ts).
 */
export const RedoMarkSchema = z.strictObject({
  kind: z.enum(["continue", "regenerate", "edit", "notebook_rebuilt", "moved"]),
  from: z.number().int().positive().nullable().default(null),
});
export type RedoMark = z.infer<typeof RedoMarkSchema>;

/** A range of seqs a later mark superseded: `from`..`to`, both included. */
export interface SupersededRange {
  from: number;
  to: number;
  /** The seq of the mark that superseded it. */
  by: number;
  kind: "regenerate" | "edit";
}

/**
 * The ranges superseded by the marks (each `{ seq, mark }`, in seq order). Regenerate keeps the
 * person's message and supersedes what answered it; Edit supersedes the message too.
 */
export function supersededRanges(marks: readonly { seq: number; mark: RedoMark }[]): SupersededRange[] {
  const ranges: SupersededRange[] = [];
  for (const { seq, mark } of marks) {
    if ((mark.kind !== "regenerate" && mark.kind !== "edit") || mark.from === null) continue;
    const from = mark.kind === "regenerate" ? mark.from + 1 : mark.from;
    if (from <= seq - 1) ranges.push({ from, to: seq - 1, by: seq, kind: mark.kind });
  }
  return ranges;
}

/** The range that supersedes `seq`, the outermost one when they nest (a later mark covering an earlier one). */
export function supersededBy(seq: number, ranges: readonly SupersededRange[]): SupersededRange | null {
  let found: SupersededRange | null = null;
  for (const r of ranges) {
    if (seq >= r.from && seq <= r.to && (found === null || r.from <= found.from)) found = r;
  }
  return found;
}

/** What the chat says at each mark. */
export function redoText(mark: RedoMark, detail = ""): string {
  switch (mark.kind) {
    case "continue":
      return detail || "Continuing the run from the step where it stopped.";
    case "regenerate":
      return "Answering the message again.";
    case "edit":
      return "The message was edited; answering the new version.";
    case "notebook_rebuilt":
      return detail || "The notebook's kernel had stopped, so its recorded cells were run again to rebuild its state.";
    case "moved":
      return detail || "This run moved to another server, continuing from the step it was on.";
  }
}
