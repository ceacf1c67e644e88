/**
 * Building the answer a turn gives, in both Chat Completions shapes: one `chat.completion`
 * object, or the `chat.completion.chunk` sequence a streaming server sends. The chunk layout
 * copies what OpenAI sends (role delta, content deltas, tool-call deltas with the arguments
 * split, a finish chunk, then a usage chunk with `choices: []`) because that is what
 * `@ai-sdk/openai-compatible` is written against.
 */
import { countImages, textSegments, type ChatRequest } from "./request";
import type { Turn } from "./scenario";

interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

interface AnswerToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface Answer {
  id: string;
  created: number;
  model: string;
  /** null when the turn only calls tools or refuses, as OpenAI sends it. */
  content: string | null;
  refusal: string | null;
  toolCalls: AnswerToolCall[];
  finishReason: string;
  usage: Usage;
}

/** Roughly what a tokenizer would say; tests that care set `usage` on the turn. */
function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

/** OpenAI bills a low-detail image at 85 tokens; close enough for a fake. */
const IMAGE_TOKENS = 85;

function turnText(turn: Turn): string | undefined {
  if (turn.text === undefined && turn.textRepeat === undefined) return undefined;
  const repeated = turn.textRepeat === undefined ? "" : turn.textRepeat.chunk.repeat(turn.textRepeat.times);
  return (turn.text ?? "") + repeated;
}

export function buildAnswer(
  turn: Turn,
  request: ChatRequest,
  ids: { completionId: string; nextCallId: () => string },
): Answer {
  const toolCalls = (turn.toolCalls ?? []).map((call) => ({
    id: ids.nextCallId(),
    name: call.name,
    // A string is sent verbatim so a test can make the model emit malformed arguments.
    arguments: typeof call.args === "string" ? call.args : (JSON.stringify(call.args ?? {}) ?? "{}"),
  }));
  const text = turnText(turn);
  const content = text ?? (toolCalls.length > 0 || turn.refusal !== undefined ? null : "");
  const promptChars = textSegments(request).reduce((sum, segment) => sum + segment.text.length, 0);
  const completionChars =
    (content?.length ?? 0) +
    (turn.refusal?.length ?? 0) +
    toolCalls.reduce((sum, call) => sum + call.name.length + call.arguments.length, 0);
  const prompt = turn.usage?.prompt_tokens ?? estimateTokens(promptChars) + IMAGE_TOKENS * countImages(request);
  const completion = turn.usage?.completion_tokens ?? estimateTokens(completionChars);
  return {
    id: ids.completionId,
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    content,
    refusal: turn.refusal ?? null,
    toolCalls,
    finishReason: turn.finishReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  };
}

/** The non-streaming `chat.completion` body. */
export function completionBody(answer: Answer): Record<string, unknown> {
  const message: Record<string, unknown> = { role: "assistant", content: answer.content, refusal: answer.refusal };
  if (answer.toolCalls.length > 0) {
    message.tool_calls = answer.toolCalls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  return {
    id: answer.id,
    object: "chat.completion",
    created: answer.created,
    model: answer.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: answer.finishReason }],
    usage: answer.usage,
  };
}

/** Split into a few pieces (at most `maxPiece` chars each) without cutting a surrogate pair. */
function splitText(text: string, pieces: number, maxPiece = 8192): string[] {
  if (text.length === 0) return [];
  const size = Math.max(1, Math.min(maxPiece, Math.ceil(text.length / pieces)));
  const out: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + size);
    const code = text.charCodeAt(end - 1);
    if (end < text.length && code >= 0xd800 && code <= 0xdbff) end += 1;
    out.push(text.slice(start, end));
    start = end;
  }
  return out;
}

/** The `data:` payloads of a streamed answer, in order; the caller adds `data: [DONE]`. */
export function streamChunks(answer: Answer, includeUsage: boolean): Record<string, unknown>[] {
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): Record<string, unknown> => ({
    id: answer.id,
    object: "chat.completion.chunk",
    created: answer.created,
    model: answer.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    // With include_usage OpenAI sends `usage: null` on every chunk but the last.
    ...(includeUsage ? { usage: null } : {}),
  });

  const chunks = [chunk({ role: "assistant", content: "", refusal: null })];
  for (const piece of splitText(answer.content ?? "", 4)) chunks.push(chunk({ content: piece }));
  for (const piece of splitText(answer.refusal ?? "", 2)) chunks.push(chunk({ refusal: piece }));
  answer.toolCalls.forEach((call, index) => {
    chunks.push(
      chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] }),
    );
    for (const piece of splitText(call.arguments, 2)) {
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  chunks.push(chunk({}, answer.finishReason));
  if (includeUsage) {
    chunks.push({
      id: answer.id,
      object: "chat.completion.chunk",
      created: answer.created,
      model: answer.model,
      choices: [],
      usage: answer.usage,
    });
  }
  return chunks;
}
