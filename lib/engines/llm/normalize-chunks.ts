/**
 * Server quirks fixed before the AI SDK parses a reply. Some OpenAI-compatible servers send a
 * tool call's `function.arguments` as a JSON object rather than a JSON string; the SDK's schema
 * then rejects the whole chunk and the reply is lost. Rewriting the value to a string is all it
 * takes. Pure functions here; `normalizing-fetch.ts` applies them to the HTTP body.
 */

function fixCalls(calls: unknown): boolean {
  if (!Array.isArray(calls)) return false;
  let changed = false;
  for (const call of calls) {
    const fn = (call as { function?: { arguments?: unknown } } | null)?.function;
    if (fn && fn.arguments !== undefined && fn.arguments !== null && typeof fn.arguments !== "string") {
      fn.arguments = JSON.stringify(fn.arguments);
      changed = true;
    }
  }
  return changed;
}

/** Fixes one parsed chunk or completion in place; true when something changed. */
export function normalizeCompletion(body: unknown): boolean {
  const choices = (body as { choices?: unknown } | null)?.choices;
  if (!Array.isArray(choices)) return false;
  let changed = false;
  for (const choice of choices) {
    const c = choice as { delta?: { tool_calls?: unknown }; message?: { tool_calls?: unknown } } | null;
    if (fixCalls(c?.delta?.tool_calls)) changed = true;
    if (fixCalls(c?.message?.tool_calls)) changed = true;
  }
  return changed;
}

/** One SSE line: a `data:` line with a fixable JSON chunk comes back rewritten, any other line as it was. */
export function normalizeSseLine(line: string): string {
  if (!line.startsWith("data:")) return line;
  const payload = line.slice(5).trim();
  if (!payload.startsWith("{")) return line;
  let chunk: unknown;
  try {
    chunk = JSON.parse(payload);
  } catch {
    return line;
  }
  return normalizeCompletion(chunk) ? `data: ${JSON.stringify(chunk)}` : line;
}
