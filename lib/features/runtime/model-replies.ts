/**
 * The two sides of `model_replies` (lib/foundation/protocol/model-replies.ts): a model that records the
 * replies one agent step used (the controller puts them on the step's action event), and one
 * that gives them back in order, without a model, when another instance steps the agents again
 * from the log to rebuild their memories (run-rebuild.ts). Pure apart from the wrapped model.
 */
import type { AgentModel } from "@/agents/types";
import type { ModelRole } from "@/lib/foundation/config";
import type { ResponsesReply, ToolCallRequest, ToolCallResult, ToolSpecs } from "@/lib/engines/llm/models";
import { ZERO_USAGE } from "@/lib/engines/llm/usage";
import type { ModelReply } from "@/lib/foundation/protocol/model-replies";

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
      if (!(reply.name in request.tools)) throw new ReplayMismatch(`the log recorded a call of ${reply.name}, a tool this step does not offer`);
      const result = { name: reply.name, args: reply.args, text: reply.text, thinking: reply.thinking, ...(reply.notice === undefined ? {} : { notice: reply.notice }), protocol: "native", usage: ZERO_USAGE, attempts: 1, habits: [] };
      return result as unknown as ToolCallResult<T>;
    },
    async responses() {
      return take("responses").reply as unknown as ResponsesReply;
    },
  };
}
