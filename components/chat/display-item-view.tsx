"use client";

import { memo } from "react";
import { isEntry, type CardAnswer, type DisplayItem } from "@/lib/client/message-parts";
import { agentCard } from "@/lib/foundation/protocol/agent-cards";
import { taskListText } from "@/lib/foundation/protocol/chat-text";
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";
import { AgentNote } from "./agent-note";
import { BrowserStepBlock } from "./browser-step-block";
import { ConversationMessage } from "./conversation-message";
import { ErrorCard } from "./error-card";
import { FinalCodeBlock } from "./final-code-block";
import { InteractionCard } from "./interaction-card";
import { ObservationMessage } from "./observation-message";
import { PlanBlock } from "./plan-block";
import { RunStoppedNotice } from "./run-stopped-notice";
import { StepBlock } from "./step-block";
import { EditableUserMessage } from "./editable-user-message";
import { RedoNote } from "./redo-note";

export interface DisplayItemViewProps {
  item: DisplayItem;
  /** For interactions: this is the one the run waits on. */
  pending: boolean;
  /** The newest item in the list. */
  latest: boolean;
  /** For steps: open on first render. */
  defaultOpen: boolean;
  onAnswer(answer: CardAnswer, seq: number): void;
  onRetry(): void;
}

function View({ item, pending, latest, defaultOpen, onAnswer, onRetry }: DisplayItemViewProps) {
  switch (item.kind) {
    case "turn":
      return <StepBlock agent={item.agent} index={item.index} step={item.step} observation={item.observation} defaultOpen={defaultOpen} latest={latest} />;
    case "browser":
      return <BrowserStepBlock index={item.index} step={item.step} observation={item.observation} asked={item.asked} latest={latest} />;
    case "plan":
      return <PlanBlock message={item.message} />;
    case "final_code":
      return <FinalCodeBlock message={item.message} />;
    case "interaction":
      return <InteractionCard message={item.message} response={item.response} responseInline={item.responseInline} pending={pending} onAnswer={onAnswer} />;
    case "error":
      return <ErrorCard message={item.message} retryable={item.retryable} onRetry={onRetry} />;
    case "message":
      return <MessageView message={item.message} />;
  }
}

/** A message listed on its own, by what its item is. */
function MessageView({ message }: { message: StreamedMessage }) {
  if (isEntry(message, "user", "answer")) return <EditableUserMessage message={message} />;
  if (isEntry(message, "redo")) return <RedoNote message={message} render={renderEarlier} />;
  if (isEntry(message, "cell_output", "output", "result")) return <ObservationMessage message={message} />;
  const item = message.item;
  switch (item.type) {
    case "agent_message":
    case "notice": {
      const media = item.type === "agent_message" ? item.media : [];
      // An agent that replies speaks like Argus; other agents' words are notes.
      if (item.speaker === "assistant" || agentCard(item.speaker)?.shows === "reply") return <ConversationMessage message={message} text={item.text} media={media} />;
      return <AgentNote message={message} text={item.text} />;
    }
    case "task_list":
      return <AgentNote message={message} text={taskListText(item)} />;
    case "stopped":
      return <RunStoppedNotice message={message} />;
    default:
      // Types groupMessages lists elsewhere; shown as a note rather than dropped.
      return <AgentNote message={message} text={message.content} />;
  }
}

const ignore = () => {};

/** An earlier version's items: read-only (nothing in them waits or retries any more). */
function renderEarlier(items: readonly DisplayItem[]) {
  return items.map((item) => <DisplayItemView key={item.key} item={item} pending={false} latest={false} defaultOpen={false} onAnswer={ignore} onRetry={ignore} />);
}

/** A message never changes under its seq (merging by seq keeps the first copy), so seq and type identify it. */
function sameMessage(a: StreamedMessage | null, b: StreamedMessage | null): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return a.seq === b.seq && a.role === b.role && a.item.type === b.item.type;
}

function sameItem(a: DisplayItem, b: DisplayItem): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind || a.key !== b.key) return false;
  switch (a.kind) {
    case "turn": {
      const o = b as typeof a;
      return a.index === o.index && sameMessage(a.step, o.step) && sameMessage(a.observation, o.observation);
    }
    case "browser": {
      const o = b as typeof a;
      return a.index === o.index && a.asked === o.asked && sameMessage(a.step, o.step) && sameMessage(a.observation, o.observation);
    }
    case "interaction": {
      const o = b as typeof a;
      return a.responseInline === o.responseInline && sameMessage(a.message, o.message) && sameMessage(a.response, o.response);
    }
    case "error": {
      const o = b as typeof a;
      return a.retryable === o.retryable && sameMessage(a.message, o.message);
    }
    default:
      return sameMessage(a.message, (b as typeof a).message);
  }
}

/**
 * One list entry. Memoised on content, because groupMessages rebuilds every
 * item whenever a message streams in, and re-highlighting and re-parsing the
 * whole history per message would make long runs sluggish.
 */
export const DisplayItemView = memo(
  View,
  (prev, next) =>
    prev.pending === next.pending &&
    prev.latest === next.latest &&
    prev.defaultOpen === next.defaultOpen &&
    prev.onAnswer === next.onAnswer &&
    prev.onRetry === next.onRetry &&
    sameItem(prev.item, next.item),
);
