import { agentCard } from "@/lib/foundation/protocol/agent-cards";
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";

export interface AgentNoteProps {
  /** Where the note sits in the transcript (its seq and role). */
  message: StreamedMessage;
  /** The note in words (a remark, a task list, a tool notice). */
  text: string;
}

/** Agents whose steps are cells sign their notes with their label; anything else with its role. */
const speaker = (role: StreamedMessage["role"]): string => {
  const card = agentCard(role);
  return card?.shows === "cells" ? card.label : role;
};

/** A short progress note from an agent, as plain text (task lists keep their line layout). */
export function AgentNote({ message, text }: AgentNoteProps) {
  return (
    <article data-testid={`message-${message.role}`} data-seq={message.seq} className="max-w-full text-sm text-muted-foreground">
      <span className="font-semibold text-foreground">{speaker(message.role)}: </span>
      <span className="whitespace-pre-wrap break-words">{text}</span>
    </article>
  );
}
