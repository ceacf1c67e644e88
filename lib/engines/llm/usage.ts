/**
 * Token usage in one flat shape. The AI SDK v6 reports `inputTokens` as a number at the
 * `ai` level but as `{total, noCache, cacheRead, …}` at the provider level, and servers that
 * do not stream usage leave it undefined; everything downstream wants two plain numbers.
 */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

export const ZERO_USAGE: Usage = Object.freeze({ inputTokens: 0, outputTokens: 0 });

/** A count in either v6 shape (number, or an object with `total`), or missing → 0. */
function count(value: unknown): number {
  if (typeof value === "number" && Number.isFinite(value) && value >= 0) return value;
  if (typeof value === "object" && value !== null) return count((value as { total?: unknown }).total);
  return 0;
}

/** Normalise any usage-like value (SDK usage, provider usage, OpenAI's prompt/completion, the Responses API's input/output). */
export function normalizeUsage(raw: unknown): Usage {
  if (typeof raw !== "object" || raw === null) return { inputTokens: 0, outputTokens: 0 };
  const u = raw as Record<string, unknown>;
  return {
    inputTokens: count(u.inputTokens ?? u.prompt_tokens ?? u.input_tokens),
    outputTokens: count(u.outputTokens ?? u.completion_tokens ?? u.output_tokens),
  };
}

export function sumUsage(...usages: Usage[]): Usage {
  return usages.reduce(
    (acc, u) => ({ inputTokens: acc.inputTokens + u.inputTokens, outputTokens: acc.outputTokens + u.outputTokens }),
    { inputTokens: 0, outputTokens: 0 },
  );
}

/** A rough token count for text whose usage the server never reported (a reply we cut off). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * The `llm_metrics` extra of an event, in OpenHands' field names. Per call, not cumulative:
 * the run's state sums them, so a replayed log never double counts.
 */
export function toLlmMetrics(usage: Usage): {
  accumulated_token_usage: { prompt_tokens: number; completion_tokens: number };
} {
  return { accumulated_token_usage: { prompt_tokens: usage.inputTokens, completion_tokens: usage.outputTokens } };
}
