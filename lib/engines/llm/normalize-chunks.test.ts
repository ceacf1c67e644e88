import { describe, expect, it } from "vitest";
import { normalizeCompletion, normalizeSseLine } from "./normalize-chunks";

describe("normalizeSseLine", () => {
  it("turns object arguments into the JSON string the SDK expects", () => {
    const line = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: "c1", function: { name: "f", arguments: { code: "print(1)" } } }] } }] })}`;
    const fixed = JSON.parse(normalizeSseLine(line).slice(6)) as { choices: [{ delta: { tool_calls: [{ function: { arguments: unknown } }] } }] };
    expect(fixed.choices[0].delta.tool_calls[0].function.arguments).toBe('{"code":"print(1)"}');
  });

  it("leaves good chunks, [DONE], comments and non-JSON byte for byte", () => {
    const good = `data: {"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\\"a\\""}}]}}]}`;
    for (const line of [good, "data: [DONE]", ": keep-alive", "event: ping", "data: {broken", ""]) expect(normalizeSseLine(line)).toBe(line);
  });
});

describe("normalizeCompletion", () => {
  it("fixes a non-streamed message's calls and says whether it changed anything", () => {
    const body = { choices: [{ message: { tool_calls: [{ function: { name: "f", arguments: { a: 1 } } }, { function: { name: "g", arguments: "{}" } }] } }] };
    expect(normalizeCompletion(body)).toBe(true);
    expect(body.choices[0]!.message.tool_calls.map((c) => c.function.arguments)).toEqual(['{"a":1}', "{}"]);
    expect(normalizeCompletion(body)).toBe(false);
    expect(normalizeCompletion({ error: "x" })).toBe(false);
  });
});
