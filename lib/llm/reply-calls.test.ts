import { describe, expect, it } from "vitest";
import { z } from "zod";
import { joinThinking, MAX_THINKING_CHARS, readReplyCalls } from "./reply-calls";
import type { ChatReply } from "./stream-reply";
import type { ToolSpecs } from "./tool-schema";

const tools: ToolSpecs = {
  execute_python: { description: "run", schema: z.object({ thinking: z.string(), code: z.string() }) },
  finalize_plan: { description: "done", schema: z.object({ thinking: z.string() }) },
};
const reply = (over: Partial<ChatReply>): ChatReply => ({ text: "", toolCalls: [], usage: { inputTokens: 0, outputTokens: 0 }, finishReason: "stop", truncated: false, ...over });

describe("readReplyCalls", () => {
  it("native calls win; text and reasoning beside them are thinking, never calls", () => {
    const r = readReplyCalls(
      reply({ text: "<finalize_plan/>", reasoning: "hmm", toolCalls: [{ id: "c", name: "execute_python", args: { thinking: "", code: "1" }, raw: '{"thinking":"","code":"1"}' }] }),
      tools,
    );
    expect(r.calls.map((c) => c.name)).toEqual(["execute_python"]);
    expect(r.thinking).toBe("hmm\n\n<finalize_plan/>");
    expect(r.writtenAsText).toBe(false);
  });

  it("tags in reasoning are never read as a call", () => {
    const r = readReplyCalls(reply({ reasoning: "<execute_python>print(1)</execute_python>", text: "" }), tools);
    expect(r.calls).toEqual([]);
  });

  it("calls written as text get ids and schema-fitted arguments", () => {
    const r = readReplyCalls(reply({ text: "<thinking>why</thinking><execute_python>print(1)</execute_python>" }), tools);
    expect(r).toEqual({
      calls: [{ id: "text_call_1", name: "execute_python", args: { code: "print(1)", thinking: "why" }, raw: '{"code":"print(1)","thinking":"why"}' }],
      thinking: "why",
      writtenAsText: true,
    });
  });
});

describe("joinThinking", () => {
  it("drops empty and repeated parts", () => {
    expect(joinThinking(" a ", undefined, "", "a", "b")).toBe("a\n\nb");
  });

  it("keeps at most MAX_THINKING_CHARS of a runaway reasoning", () => {
    expect(joinThinking("r".repeat(100_000)).length).toBeLessThanOrEqual(MAX_THINKING_CHARS);
  });
});
