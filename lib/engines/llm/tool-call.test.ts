import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ChatReply, ToolCall } from "./stream-reply";
import { readReplyCalls, type ToolProtocol } from "./reply-calls";
import { checkToolReply, clip, describeIssues, ignoredCallsNotice, repairMessages, type ToolVerdict } from "./tool-call";
import type { ToolSpecs } from "./tool-schema";

const tools: ToolSpecs = {
  execute_python: { description: "run", schema: z.object({ thinking: z.string(), code: z.string().min(1) }) },
  ask_user: {
    description: "ask",
    schema: z.object({ thinking: z.string(), question: z.string(), options: z.array(z.string()).default([]) }),
  },
  finalize_plan: { description: "done", schema: z.object({ thinking: z.string() }) },
};

const call = (name: string, raw: string, id = "call_1"): ToolCall => {
  let args: unknown;
  try {
    args = JSON.parse(raw);
  } catch {
    args = undefined;
  }
  return { id, name, args, raw };
};

const reply = (over: Partial<ChatReply>): ChatReply => ({
  text: "",
  toolCalls: [],
  usage: { inputTokens: 1, outputTokens: 1 },
  finishReason: "tool-calls",
  truncated: false,
  ...over,
});

const check = (r: ChatReply, max: number, protocol: ToolProtocol = "native"): ToolVerdict =>
  checkToolReply(r, readReplyCalls(r, tools), tools, max, protocol);
const repair = (r: ChatReply, v: Extract<ToolVerdict, { ok: false }>) => repairMessages(r, readReplyCalls(r, tools), v);

const bad = (v: ToolVerdict) => {
  if (v.ok) throw new Error("expected a bad verdict");
  return v;
};

describe("checkToolReply", () => {
  it("accepts one valid call and returns the schema's output (defaults applied)", () => {
    const v = check(reply({ toolCalls: [call("ask_user", '{"thinking":"t","question":"Which coin?"}')] }), 100);
    expect(v).toEqual({ ok: true, name: "ask_user", args: { thinking: "t", question: "Which coin?", options: [] }, ignored: [] });
  });

  it("plain text: asks for exactly one of the tools, by name", () => {
    const v = bad(check(reply({ text: "There are 3 coins.", finishReason: "stop" }), 100));
    expect(v.correction).toBe("Your reply did not call a tool. Call exactly one of: execute_python, ask_user, finalize_plan.");
    expect(v.problem).toBe("the reply was plain text instead of a tool call");
    expect(v.kind).toBe("no_call");
  });

  it("empty reply", () => {
    const v = bad(check(reply({ finishReason: "stop" }), 100));
    expect(v.correction).toMatch(/^Your reply was empty\. Call exactly one of/);
  });

  it("two calls: the first is used, the rest are named as ignored", () => {
    const v = check(
      reply({ toolCalls: [call("finalize_plan", '{"thinking":"a"}', "c1"), call("execute_python", '{"thinking":"b","code":"1"}', "c2")] }),
      100,
    );
    expect(v).toEqual({ ok: true, name: "finalize_plan", args: { thinking: "a" }, ignored: ["execute_python"] });
  });

  it("unknown tool", () => {
    const v = bad(check(reply({ toolCalls: [call("bash", '{"cmd":"ls"}')] }), 100));
    expect(v.correction).toBe("There is no tool named 'bash'; the tools are named execute_python, ask_user, finalize_plan. Call exactly one of: execute_python, ask_user, finalize_plan.");
    expect(v.toolErrors.call_1).toBe(v.correction);
  });

  it("an alias whose arguments don't fit: corrected with the real names", () => {
    const v = bad(check(reply({ toolCalls: [call("python", '{"script":"1","timeout":5}')] }), 100));
    expect(v.correction).toMatch(/^There is no tool named 'python'; the tools are named execute_python, ask_user, finalize_plan\./);
  });

  it("a reply cut at the output limit (finish_reason length): nothing runs, the model is asked for a shorter one", () => {
    // The cut arguments happen to parse: still not run, since the code may be half of what was meant.
    const cut = reply({ toolCalls: [call("execute_python", '{"thinking":"t","code":"import numpy"}')], finishReason: "length" });
    const v = bad(check(cut, 100));
    expect(v.kind).toBe("cut_off");
    expect(v.correction).toMatch(/^Your reply was cut off at your output token limit before your tool call was complete, so nothing was run\. Reply again with a shorter tool call/);
    expect(v.problem).toBe("the reply was cut off at the model's output limit before its call was complete");
    // The cut call is not echoed as a call (its arguments are partial); only the correction goes back.
    expect(repair(cut, v)).toEqual([{ role: "user", content: v.correction }]);
  });

  it("quotes where broken arguments stopped", () => {
    const v = bad(check(reply({ toolCalls: [call("execute_python", '{"thinking": "t" "code": "print(1)"}')] }), 100));
    expect(v.correction).toMatch(/near: .*"t" "code/);
  });

  it("arguments that are not JSON", () => {
    const v = bad(check(reply({ toolCalls: [call("execute_python", '{"thinking": "t", "code": print(1)}')] }), 100));
    expect(v.correction).toMatch(/^The arguments of execute_python were not valid JSON \(.+\)\. Call execute_python again/);
  });

  it("arguments that fail the schema name the field", () => {
    const v = bad(check(reply({ toolCalls: [call("execute_python", '{"thinking":"t"}')] }), 100));
    expect(v.correction).toMatch(/^The arguments of execute_python are invalid: `code`: .*expected string.*\. Call execute_python again with corrected arguments\.$/);
    expect(v.problem).toMatch(/^the arguments of execute_python were invalid: `code`/);
  });

  it("refusals, by text or by content filter", () => {
    const said = bad(check(reply({ refusal: "I can't help with that." }), 100));
    expect(said.problem).toBe('the model refused or its reply was filtered ("I can\'t help with that.")');
    const filtered = bad(check(reply({ finishReason: "content-filter" }), 100));
    expect(filtered.correction).toMatch(/refusal or was blocked by a content filter/);
  });

  it("a reply cut off for size", () => {
    const v = bad(check(reply({ text: "x".repeat(150), truncated: true }), 100));
    expect(v.problem).toBe("the reply was longer than 100 characters and was cut off");
    expect(v.correction).toMatch(/^Your reply was far too long \(over 100 characters\)/);
  });
});

describe("describeIssues", () => {
  it("names nested fields and caps the list", () => {
    const schema = z.object({ a: z.string(), b: z.number(), items: z.array(z.object({ x: z.string() })), d: z.boolean() });
    const result = schema.safeParse({ items: [{ x: 1 }] });
    expect(result.success).toBe(false);
    const text = describeIssues(result.error!.issues);
    expect(text).toMatch(/^`a`: .*; `b`: .*; `items\[0\]\.x`: .* \(and 1 more\)$/);
  });
});

describe("repairMessages", () => {
  it("echoes text replies as an assistant message, then the correction", () => {
    const r = reply({ text: "Three coins.", finishReason: "stop" });
    const v = bad(check(r, 100));
    expect(repair(r, v)).toEqual([
      { role: "assistant", content: "Three coins." },
      { role: "user", content: v.correction },
    ]);
  });

  it("does not echo an empty reply", () => {
    const r = reply({ finishReason: "stop" });
    expect(repair(r, bad(check(r, 100)))).toHaveLength(1);
  });

  it("echoes tool calls as calls, each answered by its error", () => {
    const r = reply({ text: "Running.", toolCalls: [call("execute_python", '{"thinking":"t"}')] });
    const v = bad(check(r, 100));
    const [assistant, tool, user] = repair(r, v);
    expect(assistant).toEqual({
      role: "assistant",
      content: [
        { type: "text", text: "Running." },
        { type: "tool-call", toolCallId: "call_1", toolName: "execute_python", input: { thinking: "t" } },
      ],
    });
    expect(tool).toEqual({
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: "call_1", toolName: "execute_python", output: { type: "error-text", value: v.correction } },
      ],
    });
    expect(user).toEqual({ role: "user", content: v.correction });
  });

  it("clips a huge reply before echoing it", () => {
    const r = reply({ text: "y".repeat(5_000), truncated: true });
    const [assistant] = repair(r, bad(check(r, 4_000)));
    expect(assistant).toEqual({ role: "assistant", content: clip("y".repeat(5_000)) });
    expect((assistant as { content: string }).content).toMatch(/\[… 3000 more characters cut\]$/);
  });
});

describe("ignoredCallsNotice", () => {
  it("names a few ignored calls, each clipped, since the names come from the model", () => {
    expect(ignoredCallsNotice("a", [])).toBeUndefined();
    const notice = ignoredCallsNotice("execute_python", ["x".repeat(5_000), "b", "c", "d", "e", "f", "g"])!;
    expect(notice.length).toBeLessThan(400);
    expect(notice).toMatch(/^Only your first call \(execute_python\) was used; the other 7 \(x+, b, c, d, e, …\) were ignored\./);
  });
});
