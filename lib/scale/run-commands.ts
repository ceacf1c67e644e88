import { z } from "zod";
import { PostMessageBody } from "@/lib/protocol/api";

/**
 * What one instance asks the owner of a run to do, and the owner's answer, as
 * they travel over Redis. Validated on arrival: another instance may run a
 * different version.
 */
export const RunCommandSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("post"), sessionId: z.string().uuid(), body: PostMessageBody }),
  z.object({ kind: z.literal("cancel"), sessionId: z.string().uuid() }),
]);
export type RunCommand = z.infer<typeof RunCommandSchema>;

export const RunCommandRequestSchema = z.object({
  id: z.string().min(1).max(100),
  /** The asking instance: the answer goes to its reply channel. */
  from: z.string().min(1).max(200),
  /**
   * Ms since the epoch after which the asker has given up (and told the person to retry): a
   * command that reaches the owner later, e.g. flushed from a client queue when Redis returns,
   * is dropped instead of cancelling a run long after the person saw "try again".
   */
  expiresAt: z.number(),
  command: RunCommandSchema,
});
export type RunCommandRequest = z.infer<typeof RunCommandRequestSchema>;

const SocketErrorSchema = z.object({ code: z.string(), message: z.string(), field: z.string().optional() });

export const RunCommandReplySchema = z.discriminatedUnion("ok", [
  z.object({ id: z.string(), ok: z.literal(true), result: z.object({ runId: z.string(), resumed: z.boolean().optional() }) }),
  z.object({ id: z.string(), ok: z.literal(false), error: SocketErrorSchema }),
]);
export type RunCommandReply = z.infer<typeof RunCommandReplySchema>;
export type RunCommandResult = Extract<RunCommandReply, { ok: true }>["result"];

export const commandChannel = (instanceId: string) => `argus:run-commands:${instanceId}`;
export const replyChannel = (instanceId: string) => `argus:run-replies:${instanceId}`;
