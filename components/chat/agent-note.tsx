import { agentCard } from "@/lib/protocol/agent-cards";
import type { StreamedMessage } from "@/lib/protocol/agent-message";

export interface AgentNoteProps {
  /** A planner or coder message that is not a code step, plan or final code (task lists, tool notices). */
  message: StreamedMessage;
}

/** Agents whose steps are cells sign their notes with their label; anything else with its role. */
const speaker = (role: StreamedMessage["role"]): string => {
  const card = agentCard(role);
  return card?.shows === "cells" ? card.label : role;
};

/** A short progress note from an agent, as plain text (task lists keep their line layout). */
export function AgentNote({ message }: AgentNoteProps) {
  return (
    <article data-testid={`message-${message.role}`} data-seq={message.seq} className="max-w-full text-sm text-muted-foreground">
      <span className="font-semibold text-foreground">{speaker(message.role)}: </span>
      <span className="whitespace-pre-wrap break-words">{message.content}</span>
    </article>
  );
}
