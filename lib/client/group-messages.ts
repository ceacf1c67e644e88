/**
 * Wire messages → the items the chat lists: steps paired with their output,
 * questions with their answers, and which error offers Retry. Pure; reads
 * each message's typed chat item (lib/foundation/protocol/chat-item.ts), never its text.
 */
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";
import { agentCard } from "@/lib/foundation/protocol/agent-cards";
import type { CellAgent, ChatItemOf, ChatItemType, InteractionItem } from "@/lib/foundation/protocol/chat-item";

/** A wire message whose item is of the given type(s). */
export type Entry<T extends ChatItemType = ChatItemType> = StreamedMessage & { item: ChatItemOf<T> };
export type InteractionEntry = StreamedMessage & { item: InteractionItem };

/** The agent whose cell a step is (one whose card runs cells, agent-cards.ts). */
export type StepAgent = CellAgent;

export type DisplayItem =
  /** The person's words, agents' words and notes, task lists, outputs and results no step claimed. */
  | { kind: "message"; key: string; message: StreamedMessage }
  /** A code cell with the output that answered it (null while the cell runs). `index` counts cells of this agent in the run, from 1. */
  | { kind: "turn"; key: string; agent: StepAgent; index: number; step: Entry<"cell">; observation: Entry<"cell_output"> | null }
  /**
   * A browsing step: the browser's action with the screen that followed it,
   * null while it runs or when a safety card came in between. A screen listed
   * on its own has `step` null. `index` counts the browser's actions in the
   * run, from 1; `asked`: a safety card came after the action, so its outcome
   * is listed after the card.
   */
  | { kind: "browser"; key: string; index: number; step: Entry<"browser_step"> | null; observation: Entry<"browser_screen"> | null; asked: boolean }
  | { kind: "plan"; key: string; message: Entry<"plan"> }
  | { kind: "final_code"; key: string; message: Entry<"final_code"> }
  /**
   * `response` is the answer that answered it, if any. `responseInline`: the
   * card also renders the response message itself; when false, other messages
   * came in between, so the response is additionally listed as its own item
   * at its place (transcript order stays seq order).
   */
  | { kind: "interaction"; key: string; message: InteractionEntry; response: Entry<"answer"> | null; responseInline: boolean }
  /** Only the latest error with no later message from the person offers Retry. */
  | { kind: "error"; key: string; message: Entry<"error">; retryable: boolean };

const keyOf = (m: StreamedMessage) => `seq-${m.seq}`;

/** Narrows a message by its item's type (a type guard, so no casts at the call sites). */
export function isEntry<T extends ChatItemType>(m: StreamedMessage, ...types: T[]): m is Entry<T> {
  return (types as ChatItemType[]).includes(m.item.type);
}

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

/** Words or notes of an agent whose work shows as steps (cells or pages): they end that run's open step, as any move of those agents does. */
const isStepSpeaker = (speaker: string): boolean => {
  const shows = agentCard(speaker)?.shows;
  return shows === "cells" || shows === "pages";
};

/**
 * Wire messages → what the chat lists. A code cell absorbs the output that
 * directly follows it in the same run, a browser step the screen that does;
 * an interaction is answered by the next answer — given to the most recent
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
  const count = (countKey: string) => {
    const index = (stepCounts.get(countKey) ?? 0) + 1;
    stepCounts.set(countKey, index);
    return index;
  };

  for (const m of ordered(messages)) {
    const run = m.runId;
    if (isEntry(m, "cell")) {
      openStep.delete(run);
      const agent = m.item.agent;
      const item = { kind: "turn" as const, key: keyOf(m), agent, index: count(`${agent}:${run ?? ""}`), step: m, observation: null };
      items.push(item);
      openStep.set(run, item);
    } else if (isEntry(m, "plan")) {
      openStep.delete(run);
      items.push({ kind: "plan", key: keyOf(m), message: m });
    } else if (isEntry(m, "final_code")) {
      openStep.delete(run);
      items.push({ kind: "final_code", key: keyOf(m), message: m });
    } else if (isEntry(m, "browser_step")) {
      openStep.delete(run);
      const item = { kind: "browser" as const, key: keyOf(m), index: count(`browser:${run ?? ""}`), step: m, observation: null, asked: false };
      items.push(item);
      // "done" ends the browsing: nothing answers it.
      if (m.item.action.tool !== "done") openStep.set(run, item);
    } else if (isEntry(m, "cell_output", "output", "browser_screen")) {
      const step = openStep.get(run);
      openStep.delete(run);
      const last = items[items.length - 1];
      // A step only takes an observation of its own kind.
      if (step && last === step && step.kind === "turn" && isEntry(m, "cell_output")) step.observation = m;
      else if (step && last === step && step.kind === "browser" && isEntry(m, "browser_screen")) step.observation = m;
      else if (isEntry(m, "browser_screen")) items.push({ kind: "browser", key: keyOf(m), index: 0, step: null, observation: m, asked: false });
      else items.push({ kind: "message", key: keyOf(m), message: m });
    } else if (isEntry(m, "error")) {
      // A run-level error ends the step: a later observation is not its output.
      openStep.delete(run);
      items.push({ kind: "error", key: keyOf(m), message: m, retryable: false });
    } else if (isEntry(m, "question", "tool_review", "safety_check")) {
      const open = openStep.get(run);
      if (open?.kind === "browser") open.asked = true;
      const item = { kind: "interaction" as const, key: keyOf(m), message: m as InteractionEntry, response: null, responseInline: false };
      items.push(item);
      unanswered.push(item);
    } else if (isEntry(m, "answer")) {
      const target = unanswered.pop();
      if (target) {
        target.response = m;
        target.responseInline = items[items.length - 1] === target;
      }
      if (!target?.responseInline) items.push({ kind: "message", key: keyOf(m), message: m });
    } else {
      if (isEntry(m, "agent_message", "notice", "task_list") && isStepSpeaker(m.item.speaker)) openStep.delete(run);
      items.push({ kind: "message", key: keyOf(m), message: m });
    }
  }

  // Retry belongs to the latest failure only, and only until the person has
  // moved on (sent a message, answered a question, or retried, regenerated or edited after it).
  let lastSpoke = -1;
  for (const m of messages) {
    if ((m.item.type === "user" || m.item.type === "answer" || m.item.type === "redo") && m.seq > lastSpoke) lastSpoke = m.seq;
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
