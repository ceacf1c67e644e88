/**
 * One step's live drafts: every raw draft the model client reports goes through a pacer, and
 * what goes out is the draft's view (draft.ts), only when it changed. The controller flushes it
 * before appending the step's event, so the last draft always precedes the persisted one.
 */
import { draftView, type ReplyDraft } from "@/lib/engines/llm/draft";
import type { AgentName } from "@/lib/foundation/protocol/event-base";
import type { DraftView, DraftWire } from "@/lib/foundation/protocol/socket";
import { DraftPacer, systemClock, type PacerClock } from "./draft-pacer";

/** At most one draft per this many ms while a reply streams (the first goes out at once). */
export const DRAFT_GAP_MS = 30;
/** Past this size a view is sent less often, so a long reply can't flood the socket (~0.5 MB/s at most). */
const LARGE_VIEW_CHARS = 16_000;

/** The pause after sending a view of `chars` characters. */
export function draftGapMs(chars: number): number {
  return Math.max(DRAFT_GAP_MS, Math.round((chars / LARGE_VIEW_CHARS) * DRAFT_GAP_MS));
}

const hasText = (view: DraftView): boolean => Object.entries(view).some(([key, value]) => key !== "tool" && value !== "");

export interface StepDraftsOptions {
  runId: string;
  agent: AgentName;
  /** The step's number in its run, from 1. */
  step: number;
  /** The session's newest persisted seq, read when each draft is sent. */
  lastSeq: () => number;
  send: (draft: DraftWire) => void;
  clock?: PacerClock;
}

export interface StepDrafts {
  /** Give this to the model call as `onDraft`. */
  onDraft: (draft: ReplyDraft) => void;
  /** Sends the held draft now: call before persisting the step's event. */
  flush(): void;
  /** Drops the held draft and ignores any later one. */
  close(): void;
}

const size = (d: ReplyDraft): number => d.text.length + d.reasoning.length + d.toolInput.length;

/** Drafts only grow within one reply; a new tool or less written means another reply began. */
function startsAnotherReply(previous: ReplyDraft, next: ReplyDraft): boolean {
  return next.toolName !== previous.toolName || size(next) < size(previous);
}

export function stepDrafts(o: StepDraftsOptions): StepDrafts {
  let lastSent: string | null = null;
  const pacer = new DraftPacer<ReplyDraft>((draft) => {
    const view = draftView(draft);
    const key = JSON.stringify(view);
    if (key === lastSent) return null;
    // Nothing shown yet and nothing to show: no empty bubble.
    if (lastSent === null && !hasText(view)) return null;
    lastSent = key;
    o.send({ runId: o.runId, agent: o.agent, step: o.step, afterSeq: o.lastSeq(), view });
    // Only text on screen starts a gap: the first words must not wait behind a bare tool name.
    return hasText(view) ? draftGapMs(key.length) : null;
  }, o.clock ?? systemClock);
  let previous: ReplyDraft | null = null;
  return {
    onDraft: (draft) => {
      // A step may make several calls (the coder writes its code, then its test). When a new
      // reply starts, the one before it goes out whole first, or coalescing would cut its end.
      if (previous !== null && startsAnotherReply(previous, draft)) pacer.flush();
      previous = draft;
      pacer.push(draft);
    },
    flush: () => pacer.flush(),
    close: () => pacer.close(),
  };
}
