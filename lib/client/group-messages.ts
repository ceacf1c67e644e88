/**
 * Wire messages → the items the chat lists: steps paired with their output,
 * questions with their answers, and which error offers Retry. Pure.
 */
import { agentCard } from "@/lib/protocol/agent-cards";
import type { AgentMessageRole, StreamedMessage } from "@/lib/protocol/agent-message";
import { isBrowserObservation, parseBrowserStep } from "./browser-wire";
import { isStep, parsePlan } from "./message-content";

/** The agent whose cell a step is (one whose card shows cells). */
export type StepAgent = AgentMessageRole;

/** An agent's messages go by how its work shows (agent-cards.ts); any other message by its role. */
const laneOf = (role: AgentMessageRole): "cells" | "pages" | AgentMessageRole => {
  const shows = agentCard(role)?.shows;
  return shows === "cells" || shows === "pages" ? shows : role;
};

export type DisplayItem =
  /** user, assistant, conversation, final_observation, planner/coder notes, and any unpaired message. */
  | { kind: "message"; key: string; message: StreamedMessage }
  /** A code step with the observation that answered it (null while the cell runs). `index` counts steps of this agent in the run, from 1. */
  | { kind: "turn"; key: string; agent: StepAgent; index: number; step: StreamedMessage; observation: StreamedMessage | null }
  /**
   * A browsing step: the browser's action with the observation (screenshot)
   * that followed it, null while it runs or when a safety card came in
   * between. An observation listed on its own has `step` null. `index`
   * counts the browser's actions in the run, from 1; `asked`: a safety card
   * came after the action, so its outcome is listed after the card.
   */
  | { kind: "browser"; key: string; index: number; step: StreamedMessage | null; observation: StreamedMessage | null; asked: boolean }
  | { kind: "plan"; key: string; message: StreamedMessage }
  | { kind: "final_code"; key: string; message: StreamedMessage }
  /**
   * `response` is the interaction_response that answered it, if any.
   * `responseInline`: the card also renders the response message itself; when
   * false, other messages came in between, so the response is additionally
   * listed as its own item at its place (transcript order stays seq order).
   */
  | { kind: "interaction"; key: string; message: StreamedMessage; response: StreamedMessage | null; responseInline: boolean }
  /** Only the latest error with no later user message offers Retry. */
  | { kind: "error"; key: string; message: StreamedMessage; retryable: boolean };

const keyOf = (m: StreamedMessage) => `seq-${m.seq}`;

/** Messages in seq order, one per seq (a re-sent seq replaces the earlier copy). */
function ordered(messages: readonly StreamedMessage[]): StreamedMessage[] {
  let sorted = true;
  for (let i = 1; i < messages.length; i++) {
    if (messages[i]!.seq <= messages[i - 1]!.seq) {
      sorted = false;
      break;
    }
  }
  if (sorted) return [...messages];
  const bySeq = new Map<number, StreamedMessage>();
  for (const m of messages) bySeq.set(m.seq, m);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

/**
 * Wire messages → what the chat lists. A planner/coder code step absorbs the
 * observation that directly follows it in the same run; an interaction is
 * answered by the next interaction_response — given to the most recent
 * unanswered interaction, since that is the one the server waits on.
 *
 * Invariant: every message is rendered exactly once and in seq order (the
 * e2e transcript check relies on it), so a message is only folded into an
 * earlier item when nothing was listed in between.
 *
 * Keys are the first message's seq, so an item keeps its key (and its
 * component state) when its observation or answer arrives later.
 */
export function groupMessages(messages: readonly StreamedMessage[]): DisplayItem[] {
  const items: DisplayItem[] = [];
  const openStep = new Map<string | null, Extract<DisplayItem, { kind: "turn" | "browser" }>>();
  const stepCounts = new Map<string, number>();
  const unanswered: Extract<DisplayItem, { kind: "interaction" }>[] = [];

  for (const m of ordered(messages)) {
    const run = m.runId;
    switch (laneOf(m.role)) {
      case "cells": {
        openStep.delete(run);
        const lead = m.content.trimStart();
        // The leading tag decides: a plan's JSON may well mention <execute_python>.
        if (lead.startsWith("<plan>") && parsePlan(m.content)) {
          items.push({ kind: "plan", key: keyOf(m), message: m });
        } else if (lead.startsWith("<final_code>")) {
          items.push({ kind: "final_code", key: keyOf(m), message: m });
        } else if (isStep(m.content)) {
          const countKey = `${m.role}:${run ?? ""}`;
          const index = (stepCounts.get(countKey) ?? 0) + 1;
          stepCounts.set(countKey, index);
          const item = { kind: "turn" as const, key: keyOf(m), agent: m.role, index, step: m, observation: null };
          items.push(item);
          openStep.set(run, item);
        } else {
          items.push({ kind: "message", key: keyOf(m), message: m });
        }
        break;
      }
      case "pages": {
        openStep.delete(run);
        const countKey = `${m.role}:${run ?? ""}`;
        const index = (stepCounts.get(countKey) ?? 0) + 1;
        stepCounts.set(countKey, index);
        const item = { kind: "browser" as const, key: keyOf(m), index, step: m, observation: null, asked: false };
        items.push(item);
        // "done" ends the browsing: nothing answers it.
        if (parseBrowserStep(m.content).action?.tool !== "done") openStep.set(run, item);
        break;
      }
      case "observation": {
        const step = openStep.get(run);
        openStep.delete(run);
        const browserObservation = isBrowserObservation(m.content);
        // A step only takes an observation of its own kind.
        if (step && items[items.length - 1] === step && (step.kind === "browser") === browserObservation) {
          step.observation = m;
        } else if (browserObservation) {
          items.push({ kind: "browser", key: keyOf(m), index: 0, step: null, observation: m, asked: false });
        } else {
          items.push({ kind: "message", key: keyOf(m), message: m });
        }
        break;
      }
      case "error_observation":
        // A run-level error ends the step: a later observation is not its output.
        openStep.delete(run);
        items.push({ kind: "error", key: keyOf(m), message: m, retryable: false });
        break;
      case "interaction": {
        const open = openStep.get(run);
        if (open?.kind === "browser") open.asked = true;
        const item = { kind: "interaction" as const, key: keyOf(m), message: m, response: null, responseInline: false };
        items.push(item);
        unanswered.push(item);
        break;
      }
      case "interaction_response": {
        const target = unanswered.pop();
        if (target) {
          target.response = m;
          target.responseInline = items[items.length - 1] === target;
        }
        if (!target?.responseInline) items.push({ kind: "message", key: keyOf(m), message: m });
        break;
      }
      default:
        items.push({ kind: "message", key: keyOf(m), message: m });
    }
  }

  // Retry belongs to the latest failure only, and only until the person has
  // moved on (sent a message or answered a question after it).
  let lastSpoke = -1;
  for (const m of messages) {
    if ((m.role === "user" || m.role === "interaction_response") && m.seq > lastSpoke) lastSpoke = m.seq;
  }
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.kind === "error") {
      item.retryable = item.message.seq > lastSpoke;
      break;
    }
  }
  return items;
}

/**
 * The seq of the newest interaction nobody answered, or undefined. Combine
 * with the run state (awaiting_user_input) to get `pendingSeq`: an old
 * unanswered question from a cancelled run is not pending.
 */
export function lastUnansweredInteractionSeq(items: readonly DisplayItem[]): number | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.kind === "interaction") return item.response ? undefined : item.message.seq;
  }
  return undefined;
}
