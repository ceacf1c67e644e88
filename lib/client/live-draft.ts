/**
 * The live draft the chat shows while a step is being written. Drafts are ephemeral socket
 * events (see lib/foundation/protocol/socket.ts): the page keeps only the newest one and decides, from
 * what it already holds, whether it still stands. Pure, so the rules are unit-tested.
 */
import { agentCard, AGENT_KINDS, NON_AGENT_PRODUCERS } from "@/lib/foundation/protocol/agent-cards";
import type { DraftView, DraftWire } from "@/lib/foundation/protocol/socket";
import type { RunStateWire } from "@/lib/foundation/protocol/state-wire";

const VIEW_KEYS = new Set(["tool", "thinking", "code", "test", "response", "question", "plan"]);
const AGENTS: ReadonlySet<string> = new Set([...AGENT_KINDS, ...NON_AGENT_PRODUCERS]);

/**
 * Whether a socket payload is a draft. The server validates drafts with zod before sending;
 * the page checks the shape without zod, which would cost the chat page more script than
 * the whole draft bubble.
 */
export function isDraftWire(value: unknown): value is DraftWire {
  if (typeof value !== "object" || value === null) return false;
  const d = value as Record<string, unknown>;
  if (typeof d.runId !== "string" || typeof d.agent !== "string" || !AGENTS.has(d.agent)) return false;
  if (!Number.isInteger(d.step) || !Number.isInteger(d.afterSeq)) return false;
  if (typeof d.view !== "object" || d.view === null) return false;
  return Object.entries(d.view).every(([k, v]) => VIEW_KEYS.has(k) && typeof v === "string");
}

/** States in which a run still produces steps. */
const LIVE = new Set(["loading", "running"]);

/**
 * The draft to show, or null. A draft stands until the page holds a message newer than its
 * `afterSeq` (the step's own event has a higher seq, so its arrival, live or through sync,
 * replaces the draft, and a stale draft can never come back) or its run is seen to stop.
 * A state of another run, or none yet, does not hide it: the page may simply not have caught
 * up with the run the draft belongs to (state and seq here may lag behind the socket, as the
 * transcript renders deferred), while a draft of an older run is always behind the held seq.
 */
export function visibleDraft(draft: DraftWire | null, heldLastSeq: number, state: RunStateWire | null): DraftWire | null {
  if (draft === null || heldLastSeq > draft.afterSeq) return null;
  if (state !== null && state.runId === draft.runId && !LIVE.has(state.agentState)) return null;
  return hasContent(draft.view) ? draft : null;
}

/** Something a person can read (a tool name alone, or a reply starting over, is not). */
export function hasContent(view: DraftView): boolean {
  return Object.entries(view).some(([key, value]) => key !== "tool" && value !== "");
}

/** The heading of the bubble: who is writing what. */
export function draftTitle(draft: DraftWire): string {
  const card = agentCard(draft.agent);
  if (card?.shows === "pages") return `${card.label} · deciding the next step`;
  if (card?.shows !== "cells") return "Argus";
  const who = card.label;
  const v = draft.view;
  if (v.tool === "submit_plan" || v.plan !== undefined) return `${who} · writing the plan`;
  if (v.question !== undefined) return `${who} · writing a question`;
  if (v.test !== undefined && v.code === undefined) return `${who} · writing the test`;
  if (v.code !== undefined) return `${who} · writing code`;
  return `${who} · thinking`;
}

/** The newest draft, held outside React state so a draft re-renders only its own bubble. */
export interface DraftStore {
  get(): DraftWire | null;
  set(draft: DraftWire | null): void;
  subscribe(listener: () => void): () => void;
}

export function createDraftStore(): DraftStore {
  let current: DraftWire | null = null;
  const listeners = new Set<() => void>();
  return {
    get: () => current,
    set(draft) {
      if (draft === current) return;
      current = draft;
      for (const l of listeners) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
