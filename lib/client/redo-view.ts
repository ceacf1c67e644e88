/**
 * What the chat offers to do a turn again (lib/foundation/protocol/redo.ts), and how it folds what a
 * Regenerate or Edit superseded: out of the main flow, kept under the mark that replaced it
 * (ChatGPT keeps earlier versions the same way). Pure; reads the typed chat items.
 */
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";
import { supersededBy, supersededRanges } from "@/lib/foundation/protocol/redo";
import type { RunStateWire } from "@/lib/foundation/protocol/state-wire";

export interface FoldedMessages {
  /** The messages of the current version of the chat, in order. */
  current: StreamedMessage[];
  /** What each Regenerate or Edit mark (by its seq) superseded. */
  earlier: Map<number, StreamedMessage[]>;
}

/** Splits the transcript into its current version and the earlier versions the marks superseded. */
export function foldSuperseded(messages: readonly StreamedMessage[]): FoldedMessages {
  const marks = messages.flatMap((m) => (m.item.type === "redo" ? [{ seq: m.seq, mark: { kind: m.item.kind, from: m.item.from } }] : []));
  const ranges = supersededRanges(marks);
  if (ranges.length === 0) return { current: [...messages], earlier: new Map() };
  const current: StreamedMessage[] = [];
  const earlier = new Map<number, StreamedMessage[]>();
  for (const m of messages) {
    const range = supersededBy(m.seq, ranges);
    if (!range) current.push(m);
    else earlier.set(range.by, [...(earlier.get(range.by) ?? []), m]);
  }
  return { current, earlier };
}

/** What the person may do again now. */
export interface RedoOffers {
  /** Their messages they may edit and send again (none while a run is going). */
  editable: ReadonlySet<number>;
  /** Their latest message, to answer again (Regenerate), once its run ended; else null. */
  regenerate: number | null;
  /** The run to continue after a Stop or an interruption (a failure offers Retry on its card instead); else null. */
  continueRun: string | null;
}

const NOTHING: RedoOffers = { editable: new Set(), regenerate: null, continueRun: null };

/** The offers for the current version of the chat (`current` from foldSuperseded) and the run's state. */
export function redoOffers(current: readonly StreamedMessage[], state: RunStateWire | null): RedoOffers {
  const ended = state === null || ["finished", "error", "stopped", "rejected", "interrupted"].includes(state.agentState);
  if (!ended) return NOTHING;
  const mine = current.filter((m) => m.item.type === "user");
  const latest = mine.at(-1) ?? null;
  const continuable = state !== null && (state.agentState === "stopped" || state.agentState === "interrupted") && latest?.runId === state.runId;
  return {
    editable: new Set(mine.map((m) => m.seq)),
    regenerate: latest && latest.runId !== null ? latest.seq : null,
    continueRun: continuable ? state.runId : null,
  };
}
