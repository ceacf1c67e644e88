import type { ArgusEventInput } from "@/lib/foundation/protocol/events";

/** Small builders for events a test appends to the log. */
export const userMessage = (content: string, runId?: string): ArgusEventInput => ({
  source: "user",
  agent: "user",
  ...(runId ? { runId } : {}),
  action: "message",
  args: { content },
});

export const agentReply = (content: string, runId: string): ArgusEventInput => ({
  source: "agent",
  agent: "conversation",
  runId,
  action: "message",
  args: { content },
});

export const stateChange = (agentState: string, runId: string): ArgusEventInput =>
  ({
    source: "environment",
    agent: "system",
    runId,
    observation: "agent_state_changed",
    content: "",
    extras: { agent_state: agentState, reason: "" },
  }) as ArgusEventInput;
