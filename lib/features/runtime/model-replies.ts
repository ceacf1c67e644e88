/**
 * The two sides of `model_replies` (lib/foundation/protocol/model-replies.ts): a model that records the
 * replies one agent step used (the controller puts them on the step's action event), and one
 * that gives them back in order, without a model, when another instance steps the agents again
 * from the log to rebuild their memories (run-rebuild.ts). Pure apart from the wrapped model.
 */
import type { AgentModel } from "@/agents/types";
import type { ModelRole } from "@/lib/foundation/config";
import { z } from "zod";
import { ResponseItemSchema } from "@/lib/engines/llm/responses";
import type { ResponsesReply, ToolCallRequest, ToolCallResult, ToolSpecs } from "@/lib/engines/llm/models";
import { ZERO_USAGE } from "@/lib/engines/llm/usage";
import type { ModelReply } from "@/lib/foundation/protocol/model-replies";

/** A Responses reply as recordingModel wrote it (responses.ts made it): checked before the browser agent reads it. */
const RecordedResponsesSchema = z.object({ id: z.string(), status: z.string(), output: z.array(ResponseItemSchema), incompleteReason: z.string().optional(), usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }).catch({ ...ZERO_USAGE }) });

type Json = Extract<ModelReply, { kind: "tool_call" }>["args"];

/** The log does not hold what an agent's step asked of the model: the run cannot be rebuilt from it. */
export class ReplayMismatch extends Error {}

/** `model`, with every reply it gives one step written down in `replies`. */
export function recordingModel(model: AgentModel): { model: AgentModel; replies: ModelReply[] } {
  const replies: ModelReply[] = [];
  return {
    replies,
    model: {
      async callTool(role, request) {
        const result = await model.callTool(role, request);
        const { name, args, text, thinking, notice } = result as ToolCallResult;
        replies.push({ kind: "tool_call", name, args: toJson(args), text, thinking, ...(notice === undefined ? {} : { notice }) });
        return result;
      },
      async responses(role, request) {
        const reply = await model.responses(role, request);
        replies.push({ kind: "responses", reply: toJson(reply) });
        return reply;
      },
    },
  };
}

/** A JSON copy (what the event log stores), so the record never shares objects with the agent. */
function toJson(value: unknown): Json {
  return JSON.parse(JSON.stringify(value ?? null));
}

/**
 * A model that answers with `replies`, in order, and says when a step asks for more than the
 * log recorded or for another kind of reply. `left()` tells whether the step used them all.
 */
export function replayingModel(replies: readonly ModelReply[]): AgentModel & { left(): number } {
  let next = 0;
  const take = <K extends ModelReply["kind"]>(kind: K): Extract<ModelReply, { kind: K }> => {
    const reply = replies[next];
    if (!reply) throw new ReplayMismatch(`the step asked the model more than the log recorded (${replies.length} repl${replies.length === 1 ? "y" : "ies"})`);
    if (reply.kind !== kind) throw new ReplayMismatch(`the step asked for a ${kind} reply where the log recorded a ${reply.kind} one`);
    next++;
    return reply as Extract<ModelReply, { kind: K }>;
  };
  return {
    left: () => replies.length - next,
    async callTool<T extends ToolSpecs>(_role: ModelRole, request: ToolCallRequest<T>): Promise<ToolCallResult<T>> {
      const reply = take("tool_call");
      const tool = Object.hasOwn(request.tools, reply.name) ? request.tools[reply.name] : undefined;
      if (!tool) throw new ReplayMismatch(`the log recorded a call of ${reply.name}, a tool this step does not offer`);
      // Checked as the live reply was: the log is data, and an agent only ever gets arguments its tool accepts.
      const args = tool.schema.safeParse(reply.args);
      if (!args.success) throw new ReplayMismatch(`the log recorded arguments the ${reply.name} tool refuses`);
      const result = { name: reply.name, args: args.data, text: reply.text, thinking: reply.thinking, ...(reply.notice === undefined ? {} : { notice: reply.notice }), protocol: "native", usage: ZERO_USAGE, attempts: 1, habits: [] };
      return result as unknown as ToolCallResult<T>;
    },
    async responses() {
      const reply = RecordedResponsesSchema.safeParse(take("responses").reply);
      if (!reply.success) throw new ReplayMismatch("the log recorded a browser model reply of no known shape");
      return reply.data as ResponsesReply;
    },
  };
}
