/**
 * AgentMessage: the chat-level view of the event log (vision-agent's type).
 * The UI and `update_callback` subscribers only ever see these; events are
 * projected into them by `lib/features/runtime/projection.ts`.
 */
import { z } from "zod";
import { AGENT_KINDS } from "./agent-cards";
import { ChatItemSchema } from "./chat-item";

/** Each agent speaks with its own name as its role (agent-cards.ts). */
export const AGENT_MESSAGE_ROLES = [
  "user",
  "assistant",
  ...AGENT_KINDS,
  "observation",
  "final_observation",
  "error_observation",
  "interaction",
  "interaction_response",
] as const satisfies readonly string[];
const AgentMessageRoleSchema = z.enum(AGENT_MESSAGE_ROLES);
export type AgentMessageRole = z.infer<typeof AgentMessageRoleSchema>;

export const AgentMessageSchema = z.object({
  role: AgentMessageRoleSchema,
  content: z.string(),
  /** File URLs such as `/api/files/<id>`; never base64 on the wire. */
  media: z.array(z.string()).optional(),
});
export type AgentMessage = z.infer<typeof AgentMessageSchema>;

/**
 * The socket / HTTP wire form: an AgentMessage placed in the session's order, with the typed
 * chat item it was written from (`role`/`content`/`media` stay for API clients that read them).
 */
export const StreamedMessageSchema = AgentMessageSchema.extend({
  /** What the entry is, typed: the chat renders this (lib/foundation/protocol/chat-item.ts). */
  item: ChatItemSchema,
  /** The session-wide sequence number; clients sync with `afterSeq`. */
  seq: z.number().int().nonnegative(),
  runId: z.string().nullable(),
  /** ISO-8601 time of the underlying event. */
  ts: z.string(),
});
export type StreamedMessage = z.infer<typeof StreamedMessageSchema>;
