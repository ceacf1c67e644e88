import type { TextStreamPart, ToolSet } from "ai";
import { describe, expect, it } from "vitest";
import { collectReply, parseArgs, refusalDelta, type CollectOptions } from "./stream-reply";

type Part = TextStreamPart<ToolSet>;

async function* stream(parts: Part[]): AsyncIterable<Part> {
  for (const part of parts) yield part;
}

const usage = { inputTokens: 10, outputTokens: 4, totalTokens: 14 } as Extract<Part, { type: "finish" }>["totalUsage"];
const finish = (finishReason: "stop" | "tool-calls" | "content-filter" = "stop"): Part => ({
  type: "finish",
  finishReason,
  rawFinishReason: finishReason,
  totalUsage: usage,
});
const options = (over: Partial<CollectOptions> = {}): CollectOptions => ({
  maxResponseChars: 1_000,
  abortReason: () => new DOMException("aborted", "AbortError"),
  ...over,
});

describe("collectReply", () => {
  it("streams text deltas to onText and reports usage and finish reason", async () => {
    const deltas: string[] = [];
    let touches = 0;
    const reply = await collectReply(
      stream([
        { type: "start" },
        { type: "text-start", id: "t" },
        { type: "text-delta", id: "t", text: "Three " },
        { type: "text-delta", id: "t", text: "coins." },
        { type: "text-end", id: "t" },
        finish(),
      ]),
      options({ onText: (d) => deltas.push(d), touch: () => touches++ }),
    );
    expect(deltas).toEqual(["Three ", "coins."]);
    expect(touches).toBe(6);
    expect(reply).toEqual({ text: "Three coins.", toolCalls: [], usage: { inputTokens: 10, outputTokens: 4 }, finishReason: "stop", truncated: false });
  });

  it("keeps each tool call's raw arguments exactly as sent", async () => {
    const reply = await collectReply(
      stream([
        { type: "tool-input-start", id: "c1", toolName: "execute_python" },
        { type: "tool-input-delta", id: "c1", delta: '{"code": ' },
        { type: "tool-input-delta", id: "c1", delta: '"print(1)"}' },
        { type: "tool-input-end", id: "c1" },
        { type: "tool-call", toolCallId: "c1", toolName: "execute_python", input: { code: "print(1)" } } as Part,
        { type: "tool-call", toolCallId: "c2", toolName: "x", input: "{broken", dynamic: true, invalid: true, error: new Error("bad") } as Part,
        finish("tool-calls"),
      ]),
      options(),
    );
    expect(reply.toolCalls).toEqual([
      { id: "c1", name: "execute_python", args: { code: "print(1)" }, raw: '{"code": "print(1)"}' },
      { id: "c2", name: "x", args: undefined, raw: "{broken" },
    ]);
  });

  it("collects OpenAI's refusal field from raw chunks", async () => {
    const raw = (refusal: string): Part => ({ type: "raw", rawValue: { choices: [{ delta: { refusal } }] } });
    const reply = await collectReply(stream([raw("I can't "), raw("help."), finish("stop")]), options());
    expect(reply.refusal).toBe("I can't help.");
  });

  it("cuts a runaway reply, aborting the request and estimating its tokens", async () => {
    let aborted = 0;
    const parts: Part[] = Array.from({ length: 50 }, () => ({ type: "text-delta", id: "t", text: "x".repeat(100) }) as Part);
    const reply = await collectReply(stream(parts), options({ maxResponseChars: 1_000, onOverflow: () => aborted++ }));
    expect(aborted).toBe(1);
    expect(reply.truncated).toBe(true);
    expect(reply.text).toHaveLength(1_100);
    expect(reply.usage.outputTokens).toBe(275);
    expect(reply.finishReason).toBe("length");
  });

  it("throws stream errors and aborts", async () => {
    const boom = new Error("boom");
    await expect(collectReply(stream([{ type: "error", error: boom }]), options())).rejects.toBe(boom);
    const reason = new DOMException("late", "TimeoutError");
    await expect(collectReply(stream([{ type: "abort" }]), options({ abortReason: () => reason }))).rejects.toBe(reason);
  });
});

describe("collectReply: live drafts", () => {
  it("hands onDraft the whole reply so far after each text, reasoning and first-call input delta", async () => {
    const drafts: unknown[] = [];
    await collectReply(
      stream([
        { type: "reasoning-start", id: "r" },
        { type: "reasoning-delta", id: "r", text: "Count " },
        { type: "reasoning-delta", id: "r", text: "" },
        { type: "reasoning-delta", id: "r", text: "them." },
        { type: "text-delta", id: "t", text: "Running." },
        { type: "tool-input-start", id: "c1", toolName: "execute_python" },
        { type: "tool-input-delta", id: "c1", delta: '{"code": ' },
        { type: "tool-input-delta", id: "c1", delta: '"x=1"}' },
        // A second call is ignored by the agents, so the draft never shows it.
        { type: "tool-input-start", id: "c2", toolName: "finalize_plan" },
        { type: "tool-input-delta", id: "c2", delta: "{}" },
        finish("tool-calls"),
      ]),
      options({ onDraft: (d) => drafts.push(d) }),
    );
    expect(drafts).toEqual([
      { text: "", reasoning: "Count ", toolName: null, toolInput: "" },
      { text: "", reasoning: "Count them.", toolName: null, toolInput: "" },
      { text: "Running.", reasoning: "Count them.", toolName: null, toolInput: "" },
      { text: "Running.", reasoning: "Count them.", toolName: "execute_python", toolInput: '{"code": ' },
      { text: "Running.", reasoning: "Count them.", toolName: "execute_python", toolInput: '{"code": "x=1"}' },
    ]);
  });
});

describe("helpers", () => {
  it("parseArgs treats empty arguments as {}", () => {
    expect(parseArgs("")).toEqual({ ok: true, value: {} });
    expect(parseArgs('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseArgs("{a:1}").ok).toBe(false);
  });

  it("refusalDelta ignores chunks without a refusal", () => {
    expect(refusalDelta({ choices: [{ delta: { content: "hi", refusal: null } }] })).toBeUndefined();
    expect(refusalDelta({ choices: [] })).toBeUndefined();
    expect(refusalDelta("garbage")).toBeUndefined();
    expect(refusalDelta({ choices: [{ message: { refusal: "no" } }] })).toBe("no");
  });
});
