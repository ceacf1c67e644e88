/**
 * The model's replies behind one agent step, recorded on the step's action event
 * (`model_replies`), so another instance can rebuild the agents' memories from the log alone
 * (OpenHands' state-from-events): it steps each agent again with these replies instead of the
 * model (lib/features/runtime/model-replies.ts). Additive: events logged before they were recorded have
 * none, and a run whose steps lack them cannot be rebuilt (it is marked interrupted instead).
 */
import { z } from "zod";

/** One reply the step's agent used, in the order it asked for them. */
export const ModelReplySchema = z.discriminatedUnion("kind", [
  /** A validated tool call (callTool): its tool, its arguments as the schema output them, and what came beside it. */
  z.object({
    kind: z.literal("tool_call"),
    name: z.string(),
    args: z.json(),
    text: z.string().default(""),
    thinking: z.string().default(""),
    notice: z.string().optional(),
  }),
  /** A Responses API reply (the browser's computer-use loop), as the endpoint gave it. */
  z.object({ kind: z.literal("responses"), reply: z.json() }),
]);
export type ModelReply = z.infer<typeof ModelReplySchema>;

export const ModelRepliesSchema = z.array(ModelReplySchema);
