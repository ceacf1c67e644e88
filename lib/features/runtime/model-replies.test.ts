import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ToolSpecs } from "@/lib/engines/llm/models";
import { ModelRepliesSchema, type ModelReply } from "@/lib/foundation/protocol/model-replies";
import { recordingModel, replayingModel, ReplayMismatch } from "./model-replies";
import { fromDict, toDict } from "./serialization";

const tools = { reply: { description: "Say it.", schema: z.object({ response: z.string() }) } } satisfies ToolSpecs;
const request = { messages: [], tools, signal: new AbortController().signal };
const replies: ModelReply[] = [
  { kind: "tool_call", name: "reply", args: { response: "first" }, text: "", thinking: "because", notice: "two calls, the first used" },
  { kind: "responses", reply: { id: "resp_1", status: "completed", output: [], usage: { inputTokens: 1, outputTokens: 2 } } },
];

describe("the model replies behind a step", () => {
  it("are given back in order without a model, and recorded again exactly as they were (a round trip through the log's schema)", async () => {
    const recorded = recordingModel(replayingModel(replies));
    const first = await recorded.model.callTool("conversation", request);
    expect(first).toMatchObject({ name: "reply", args: { response: "first" }, thinking: "because", notice: "two calls, the first used", usage: { inputTokens: 0, outputTokens: 0 } });
    expect(await recorded.model.responses("browser", { body: {}, signal: request.signal })).toMatchObject({ id: "resp_1" });
    expect(ModelRepliesSchema.parse(JSON.parse(JSON.stringify(recorded.replies)))).toEqual(replies);
  });

  it("say when a step asks for more than the log holds, another kind of reply, or a tool it does not offer", async () => {
    const exhausted = replayingModel([]);
    await expect(exhausted.callTool("planner", request)).rejects.toBeInstanceOf(ReplayMismatch);
    await expect(replayingModel([replies[1]!]).callTool("planner", request)).rejects.toThrow(/tool_call reply where the log recorded a responses one/);
    const other: ModelReply = { kind: "tool_call", name: "execute_python", args: {}, text: "", thinking: "" };
    await expect(replayingModel([other]).callTool("planner", request)).rejects.toThrow(/does not offer/);
    const some = replayingModel(replies);
    await some.callTool("conversation", request);
    expect(some.left()).toBe(1);
  });

  it("are stored with the step's action and read back (the log's dict form), and an older action without them still reads", () => {
    const action = fromDict({ source: "agent", agent: "conversation", runId: "r", action: "message", args: { content: "first" }, model_replies: replies });
    expect(fromDict(JSON.parse(JSON.stringify(toDict(action)))).model_replies).toEqual(replies);
    expect(fromDict({ source: "agent", agent: "conversation", action: "message", args: { content: "older" } }).model_replies).toBeUndefined();
  });

  it("are refused by the log's schema when malformed", () => {
    expect(ModelRepliesSchema.safeParse([{ kind: "tool_call", args: {} }]).success).toBe(false);
    expect(ModelRepliesSchema.safeParse([{ kind: "guess", reply: 1 }]).success).toBe(false);
  });

  it("are checked again as they are given back: a reply forged into the log (arguments the tool refuses, a response of no shape) ends the rebuild, it never reaches the agent", async () => {
    const forged: ModelReply = { kind: "tool_call", name: "reply", args: { response: 42 }, text: "", thinking: "" };
    await expect(replayingModel([forged]).callTool("conversation", request)).rejects.toThrow(ReplayMismatch);
    await expect(replayingModel([forged]).callTool("conversation", request)).rejects.toThrow(/arguments the reply tool refuses/);
    const shapeless: ModelReply = { kind: "responses", reply: { output: "rm -rf" } };
    await expect(replayingModel([shapeless]).responses("browser", { body: {}, signal: request.signal })).rejects.toThrow(ReplayMismatch);
  });
});
