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
      habits: [],
    });
  });
});

describe("readReplyCalls: real models' habits, undone for every agent", () => {
  const native = (name: string, args: unknown, text = "") =>
    reply({ text, toolCalls: [{ id: "c", name, args: typeof args === "string" ? undefined : args, raw: typeof args === "string" ? args : JSON.stringify(args) }] });

  it("<think> beside a native call is thinking, without its tags", () => {
    const r = readReplyCalls(native("execute_python", { thinking: "t", code: "1" }, "<think>Segment first.</think>\n"), tools);
    expect(r.thinking).toBe("Segment first.");
    expect(r.habits).toEqual(["thinking_in_text"]);
  });

  it("an unclosed <think> before a tagged call: the call is read, the thinking is thinking", () => {
    const r = readReplyCalls(reply({ text: "<think>Segment first.\n<execute_python>\nprint(1)\n</execute_python>" }), tools);
    expect(r.calls).toMatchObject([{ name: "execute_python", args: { code: "print(1)", thinking: "Segment first." } }]);
    expect(r.habits).toEqual(["thinking_in_text"]);
  });

  it("a fenced code argument, double-encoded arguments, and an alias are undone", () => {
    const fenced = readReplyCalls(native("execute_python", { thinking: "t", code: "```python\nprint(1)\n```" }), tools);
    expect(fenced.calls[0]).toMatchObject({ args: { code: "print(1)" } });
    expect(fenced.habits).toEqual(["fenced_code"]);
    const double = readReplyCalls(native("execute_python", JSON.stringify(JSON.stringify({ thinking: "t", code: "1" }))), tools);
    expect(double.calls[0]).toMatchObject({ args: { thinking: "t", code: "1" } });
    expect(double.habits).toEqual(["double_encoded"]);
    const alias = readReplyCalls(native("python", { code: "1" }, "<think>why</think>"), tools);
    expect(alias.calls[0]).toMatchObject({ name: "execute_python", args: { code: "1", thinking: "why" } });
    expect(alias.habits).toEqual(["thinking_in_text", "tool_alias"]);
  });

  it("an alias written as a tag is read as the real tool", () => {
    const r = readReplyCalls(reply({ text: "<thinking>why</thinking><python>print(1)</python>" }), tools);
    expect(r.calls).toMatchObject([{ name: "execute_python", args: { code: "print(1)", thinking: "why" } }]);
    expect(r.habits).toEqual(["tool_alias"]);
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
