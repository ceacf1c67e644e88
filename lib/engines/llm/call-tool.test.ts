import { describe, expect, it } from "vitest";
import { z } from "zod";
import { clipLine, protocolRequest, withUsage } from "./call-tool";
import { ModelError } from "./errors";
import { textProtocolInstructions } from "./tagged-calls";

const tools = { answer: { description: "Give the answer.", schema: z.object({ text: z.string() }) } };
const request = { system: "You are the coder.", messages: [], tools, signal: new AbortController().signal };

describe("protocolRequest", () => {
  it("sends the tools natively and leaves the system prompt alone", () => {
    expect(protocolRequest(request, "native")).toEqual({ system: "You are the coder.", tools });
  });

  it("describes the tools in the system prompt for the text protocol", () => {
    const text = protocolRequest(request, "text");
    expect(text.tools).toBeUndefined();
    expect(text.system).toBe(`You are the coder.\n\n${textProtocolInstructions(tools)}`);
    expect(protocolRequest({ ...request, system: undefined }, "text").system).toBe(textProtocolInstructions(tools));
  });
});

describe("clipLine", () => {
  it("puts what was said on one line and cuts it short", () => {
    expect(clipLine("a\n\n  b\tc")).toBe("a b c");
    expect(clipLine("x".repeat(10), 4)).toBe("xxxx…");
  });
});

describe("withUsage", () => {
  const error = new ModelError("unreachable", "The connection dropped.", { role: "coder", model: "m", retryable: true, attempts: 2 });

  it("keeps the tokens earlier replies spent on the error", () => {
    const out = withUsage(error, [{ inputTokens: 10, outputTokens: 5 }, { inputTokens: 1, outputTokens: 2 }]) as ModelError;
    expect(out).toBeInstanceOf(ModelError);
    expect(out).toMatchObject({ kind: "unreachable", message: "The connection dropped.", role: "coder", retryable: true, attempts: 2, usage: { inputTokens: 11, outputTokens: 7 } });
  });

  it("passes other errors, and errors before any reply, through unchanged", () => {
    const other = new Error("boom");
    expect(withUsage(other, [{ inputTokens: 1, outputTokens: 1 }])).toBe(other);
    expect(withUsage(error, [])).toBe(error);
  });
});
