/**
 * Building the answer a turn gives, in both Chat Completions shapes: one `chat.completion`
 * object, or the `chat.completion.chunk` sequence a streaming server sends. The chunk layout
 * copies what OpenAI sends (role delta, content deltas, tool-call deltas with the arguments
 * split, a finish chunk, then a usage chunk with `choices: []`) because that is what
 * `@ai-sdk/openai-compatible` is written against.
 */
import { randomBytes } from "node:crypto";
import { countImages, offeredToolNames, textSegments, type ChatRequest } from "./request";
import type { Dialect, Turn, Wire } from "./scenario";
import { applyHabits } from "./habits";
import { renderHermesCall, renderProtocolCall, withCalls } from "./text-calls";

interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

interface AnswerToolCall {
  /** null when the turn's wire leaves ids out. */
  id: string | null;
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
  reasoning: string | null;
  /** Where reasoning goes: OpenAI-style servers use `reasoning_content`, Ollama `reasoning`. */
  reasoningField: "reasoning_content" | "reasoning";
  /** Each call in one chunk with its whole arguments (Ollama) instead of split deltas. */
  wholeCalls: boolean;
  wire: Wire;
}

/** Roughly what a tokenizer would say; tests that care set `usage` on the turn. */
function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

/** OpenAI bills a low-detail image at 85 tokens; close enough for a fake. */
const IMAGE_TOKENS = 85;

export function turnText(turn: Turn): string | undefined {
  if (turn.text === undefined && turn.textRepeat === undefined) return undefined;
  const repeated = turn.textRepeat === undefined ? "" : turn.textRepeat.chunk.repeat(turn.textRepeat.times);
  return (turn.text ?? "") + repeated;
}

/** Ollama's call ids: `call_` and eight lowercase letters or digits. */
function ollamaCallId(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  return `call_${[...randomBytes(8)].map((b) => alphabet[b % alphabet.length]).join("")}`;
}

export function buildAnswer(
  scripted: Turn,
  request: ChatRequest,
  ids: { completionId: string; nextCallId: () => string },
  dialect: Dialect = "openai",
): Answer {
  const turn = applyHabits(scripted);
  const calls = turn.toolCalls ?? [];
  // A model not given tools writes its calls as text; so does vLLM without a tool parser.
  const asText = calls.length > 0 && offeredToolNames(request).length === 0;
  const asHermes = calls.length > 0 && !asText && dialect === "vllm-hermes";
  const wire = turn.wire ?? {};
  const toolCalls = asText || asHermes
    ? []
    : calls.map((call) => ({
        id: wire.omitCallIds ? null : dialect === "ollama" ? ollamaCallId() : ids.nextCallId(),
        name: call.name,
        // A string is sent verbatim so a test can make the model emit malformed arguments.
        arguments: typeof call.args === "string" ? call.args : (JSON.stringify(call.args ?? {}) ?? "{}"),
      }));
  const text = asText
    ? withCalls(turnText(turn), calls, renderProtocolCall)
    : asHermes
      ? withCalls(turnText(turn), calls, renderHermesCall)
      : turnText(turn);
  const content = text ?? (toolCalls.length > 0 || turn.refusal !== undefined ? null : "");
  const promptChars = textSegments(request).reduce((sum, segment) => sum + segment.text.length, 0);
  const completionChars =
    (content?.length ?? 0) +
    (turn.refusal?.length ?? 0) +
    (turn.reasoning?.length ?? 0) +
    toolCalls.reduce((sum, call) => sum + call.name.length + call.arguments.length, 0);
  const prompt = turn.usage?.prompt_tokens ?? estimateTokens(promptChars) + IMAGE_TOKENS * countImages(request);
  const completion = turn.usage?.completion_tokens ?? estimateTokens(completionChars);
  // Ollama ends a reply with tool calls as "stop", not "tool_calls".
  const callsFinish = dialect === "ollama" ? "stop" : "tool_calls";
  return {
    id: ids.completionId,
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    content,
    refusal: turn.refusal ?? null,
    toolCalls,
    finishReason: turn.finishReason ?? (toolCalls.length > 0 ? callsFinish : "stop"),
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
    reasoning: turn.reasoning ?? null,
    reasoningField: dialect === "ollama" ? "reasoning" : "reasoning_content",
    wholeCalls: dialect === "ollama",
    wire,
  };
}

/** `arguments` as the wire sends it: a JSON string, or the parsed object for the argumentsAsObject quirk. */
function wireArguments(answer: Answer, call: AnswerToolCall): unknown {
  if (!answer.wire.argumentsAsObject) return call.arguments;
  try {
    return JSON.parse(call.arguments) as unknown;
  } catch {
    return call.arguments;
  }
}

function callDelta(call: AnswerToolCall, index: number, fn: Record<string, unknown>): Record<string, unknown> {
  return { index, ...(call.id === null ? {} : { id: call.id }), type: "function", function: fn };
}

/** The non-streaming `chat.completion` body. */
export function completionBody(answer: Answer): Record<string, unknown> {
  const message: Record<string, unknown> = { role: "assistant", content: answer.content, refusal: answer.refusal };
  if (answer.reasoning !== null) message[answer.reasoningField] = answer.reasoning;
  if (answer.toolCalls.length > 0) {
    message.tool_calls = answer.toolCalls.map((call) => {
      const { index: _index, ...rest } = callDelta(call, 0, { name: call.name, arguments: wireArguments(answer, call) });
      return rest;
    });
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

/** One piece of a streamed answer; `timed` pieces carry model output (their send times are logged). */
export interface StreamChunk {
  data: Record<string, unknown>;
  timed: boolean;
}

/**
 * The `data:` payloads of a streamed answer, in order; the caller adds `data: [DONE]`.
 * `chunkChars` (a paced turn) cuts text and arguments into pieces of that size instead.
 */
export function streamChunks(answer: Answer, includeUsage: boolean, chunkChars?: number): StreamChunk[] {
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): Record<string, unknown> => ({
    id: answer.id,
    object: "chat.completion.chunk",
    created: answer.created,
    model: answer.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    // With include_usage OpenAI sends `usage: null` on every chunk but the last.
    ...(includeUsage ? { usage: null } : {}),
  });
  const pieces = (text: string, count: number): string[] =>
    chunkChars === undefined ? splitText(text, count) : splitText(text, Math.ceil(text.length / chunkChars), chunkChars);

  const chunks: StreamChunk[] = [{ data: chunk({ role: "assistant", content: "", refusal: null }), timed: false }];
  const timed = (delta: Record<string, unknown>) => chunks.push({ data: chunk(delta), timed: true });
  for (const piece of pieces(answer.reasoning ?? "", 4)) timed({ [answer.reasoningField]: piece });
  for (const piece of pieces(answer.content ?? "", 4)) timed({ content: piece });
  for (const piece of pieces(answer.refusal ?? "", 2)) timed({ refusal: piece });
  answer.toolCalls.forEach((call, index) => {
    if (answer.wholeCalls || answer.wire.argumentsAsObject) {
      timed({ tool_calls: [callDelta(call, index, { name: call.name, arguments: wireArguments(answer, call) })] });
      return;
    }
    chunks.push({ data: chunk({ tool_calls: [callDelta(call, index, { name: call.name, arguments: "" })] }), timed: false });
    for (const piece of pieces(call.arguments, answer.wire.argumentChunks ?? 2)) {
      timed({ tool_calls: [{ index, function: { arguments: piece } }] });
    }
  });
  chunks.push({ data: chunk({}, answer.finishReason), timed: false });
  if (includeUsage) {
    chunks.push({
      data: { id: answer.id, object: "chat.completion.chunk", created: answer.created, model: answer.model, choices: [], usage: answer.usage },
      timed: false,
    });
  }
  return chunks;
}
