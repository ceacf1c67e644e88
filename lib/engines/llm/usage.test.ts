import { describe, expect, it } from "vitest";
import { estimateTokens, normalizeUsage, sumUsage, toLlmMetrics } from "./usage";

describe("usage", () => {
  it("normalises the v6 flat and nested shapes, and OpenAI's names", () => {
    expect(normalizeUsage({ inputTokens: 12, outputTokens: 3, totalTokens: 15 })).toEqual({ inputTokens: 12, outputTokens: 3 });
    expect(normalizeUsage({ inputTokens: { total: 40, noCache: 30, cacheRead: 10 }, outputTokens: { total: 7, text: 7 } })).toEqual({
      inputTokens: 40,
      outputTokens: 7,
    });
    expect(normalizeUsage({ prompt_tokens: 5, completion_tokens: 2 })).toEqual({ inputTokens: 5, outputTokens: 2 });
    // The Responses API's names.
    expect(normalizeUsage({ input_tokens: 900, output_tokens: 40, total_tokens: 940 })).toEqual({ inputTokens: 900, outputTokens: 40 });
  });

  it("treats missing or nonsense counts as zero", () => {
    expect(normalizeUsage(undefined)).toEqual({ inputTokens: 0, outputTokens: 0 });
    expect(normalizeUsage({ inputTokens: undefined, outputTokens: { total: undefined } })).toEqual({ inputTokens: 0, outputTokens: 0 });
    expect(normalizeUsage({ inputTokens: Number.NaN, outputTokens: -3 })).toEqual({ inputTokens: 0, outputTokens: 0 });
  });

  it("sums, estimates and converts to llm_metrics", () => {
    expect(sumUsage()).toEqual({ inputTokens: 0, outputTokens: 0 });
    expect(sumUsage({ inputTokens: 1, outputTokens: 2 }, { inputTokens: 10, outputTokens: 20 })).toEqual({ inputTokens: 11, outputTokens: 22 });
    expect(estimateTokens("abcdefgh")).toBe(2);
    expect(toLlmMetrics({ inputTokens: 100, outputTokens: 9 })).toEqual({
      accumulated_token_usage: { prompt_tokens: 100, completion_tokens: 9 },
    });
  });
});
