import { z } from "zod";
import { PostMessageBody } from "@/lib/foundation/protocol/api";

/**
 * What one instance asks the owner of a run (or of a batch) to do, and the
 * owner's answer, as they travel over Redis. Validated on arrival: another
 * instance may run a different version.
 */
export const RunCommandSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("post"), sessionId: z.string().uuid(), body: PostMessageBody }),
  z.object({ kind: z.literal("cancel"), sessionId: z.string().uuid() }),
  /** Only a batch's owner can interrupt the items it runs. */
  z.object({ kind: z.literal("cancel_batch"), sessionId: z.string().uuid(), batchId: z.string().uuid() }),
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

const RunResultSchema = z.object({ runId: z.string(), resumed: z.boolean().optional() });
const BatchCancelResultSchema = z.object({ batchId: z.string() });
/** What a run command's owner answers. */
export type RunCommandResult = z.infer<typeof RunResultSchema>;
/** What a batch's owner answers once the batch is cancelled there. */
export type BatchCancelResult = z.infer<typeof BatchCancelResultSchema>;
/** The answer to each kind of command. */
export type ResultOf<C extends RunCommand> = C extends { kind: "cancel_batch" } ? BatchCancelResult : RunCommandResult;

/** Checks an owner's answer against what its command asked for. */
export function resultSchemaOf(kind: RunCommand["kind"]): z.ZodType<RunCommandResult | BatchCancelResult> {
  return kind === "cancel_batch" ? BatchCancelResultSchema : RunResultSchema;
}

export const RunCommandReplySchema = z.discriminatedUnion("ok", [
  // Checked again by its command's kind when it arrives (resultSchemaOf).
  z.object({ id: z.string(), ok: z.literal(true), result: z.union([RunResultSchema, BatchCancelResultSchema]) }),
  z.object({ id: z.string(), ok: z.literal(false), error: SocketErrorSchema }),
]);
export type RunCommandReply = z.infer<typeof RunCommandReplySchema>;

export const commandChannel = (instanceId: string) => `argus:run-commands:${instanceId}`;
export const replyChannel = (instanceId: string) => `argus:run-replies:${instanceId}`;
