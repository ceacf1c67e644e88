/**
 * Folding the AI SDK's `fullStream` into one reply. Kept apart from the HTTP call so the rules
 * (what counts as progress, where the size cap cuts, what a refusal looks like) are unit-tested
 * on plain arrays of stream parts.
 */
import type { TextStreamPart, ToolSet } from "ai";
import type { ReplyDraft } from "./draft";
import { estimateTokens, normalizeUsage, type Usage } from "./usage";

export interface ToolCall {
  /** The call id the model gave, needed to echo the call back in a repair. */
  id: string;
  name: string;
  /** `raw` parsed as JSON, or undefined when it is not JSON. Not validated. */
  args: unknown;
  /** The arguments exactly as the model sent them. */
  raw: string;
}

export interface ChatReply {
  text: string;
  toolCalls: ToolCall[];
  usage: Usage;
  /** The SDK's unified reason: stop, length, content-filter, tool-calls, error, other. */
  finishReason: string;
  /** Refusal text the endpoint sent in OpenAI's `delta.refusal` field, if any. */
  refusal?: string;
  /** `reasoning_content` / `reasoning` the endpoint streamed: thinking to show, never an answer. */
  reasoning?: string;
  /** True when the reply passed `maxResponseChars` and was cut off (the request was aborted). */
  truncated: boolean;
}

export interface CollectOptions {
  onText?: (delta: string) => void;
  /** Live drafts: the whole reply so far, after every text, reasoning or tool-input delta. */
  onDraft?: (draft: ReplyDraft) => void;
  /** Progress callback: each part pushes the attempt's silence timer back. */
  touch?: () => void;
  maxResponseChars: number;
  /** Called once when the reply outgrows the cap; it should abort the HTTP request. */
  onOverflow?: () => void;
  /** What to throw when the stream reports that it was aborted (the abort signal's reason). */
  abortReason: () => unknown;
}

/** `""` means "no arguments" to several servers; treat it as `{}` like the SDK does. */
export function parseArgs(raw: string): { ok: true; value: unknown } | { ok: false; error: string } {
  if (raw.trim() === "") return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** OpenAI puts refusals in `choices[0].delta.refusal`; the compatible provider drops the field. */
export function refusalDelta(rawChunk: unknown): string | undefined {
  if (typeof rawChunk !== "object" || rawChunk === null) return undefined;
  const choices = (rawChunk as { choices?: unknown }).choices;
  if (!Array.isArray(choices)) return undefined;
  const first: unknown = choices[0];
  if (typeof first !== "object" || first === null) return undefined;
  const delta = (first as { delta?: unknown; message?: unknown }).delta ?? (first as { message?: unknown }).message;
  if (typeof delta !== "object" || delta === null) return undefined;
  const refusal = (delta as { refusal?: unknown }).refusal;
  return typeof refusal === "string" && refusal !== "" ? refusal : undefined;
}

function rawInput(input: unknown): string {
  return typeof input === "string" ? input : JSON.stringify(input ?? {});
}

export async function collectReply(parts: AsyncIterable<TextStreamPart<ToolSet>>, options: CollectOptions): Promise<ChatReply> {
  let text = "";
  let refusal = "";
  let reasoning = "";
  const inputs = new Map<string, string>();
  const toolCalls: ToolCall[] = [];
  let usage: Usage = { inputTokens: 0, outputTokens: 0 };
  let finishReason = "unknown";
  let size = 0;
  // The draft follows the first tool call only: it is the one that will be used.
  let draftCall: { id: string; name: string } | null = null;
  const draft = (): void => {
    if (!options.onDraft) return;
    const toolInput = draftCall === null ? "" : (inputs.get(draftCall.id) ?? "");
    options.onDraft({ text, reasoning, toolName: draftCall?.name ?? null, toolInput });
  };

  const overflowed = (added: number): boolean => {
    size += added;
    return size > options.maxResponseChars;
  };
  const cut = (): ChatReply => {
    options.onOverflow?.();
    // The server never sends usage for a reply we abandon; estimate so budgets still see it.
    const estimate = estimateTokens(text) + [...inputs.values()].reduce((n, s) => n + estimateTokens(s), 0);
    return {
      text,
      toolCalls,
      usage: { inputTokens: 0, outputTokens: estimate },
      finishReason: "length",
      ...(refusal ? { refusal } : {}),
      ...(reasoning ? { reasoning } : {}),
      truncated: true,
    };
  };

  for await (const part of parts) {
    options.touch?.();
    switch (part.type) {
      case "text-delta":
        text += part.text;
        if (part.text !== "") options.onText?.(part.text);
        if (overflowed(part.text.length)) return cut();
        if (part.text !== "") draft();
        break;
      case "reasoning-delta":
        reasoning += part.text;
        if (overflowed(part.text.length)) return cut();
        if (part.text !== "") draft();
        break;
      case "tool-input-start":
        draftCall ??= { id: part.id, name: part.toolName };
        break;
      case "tool-input-delta":
        inputs.set(part.id, (inputs.get(part.id) ?? "") + part.delta);
        if (overflowed(part.delta.length)) return cut();
        if (part.delta !== "" && part.id === draftCall?.id) draft();
        break;
      case "tool-call": {
        const raw = inputs.get(part.toolCallId) ?? rawInput(part.input);
        const parsed = parseArgs(raw);
        toolCalls.push({ id: part.toolCallId, name: part.toolName, args: parsed.ok ? parsed.value : undefined, raw });
        break;
      }
      case "raw": {
        const piece = refusalDelta(part.rawValue);
        if (piece !== undefined) {
          refusal += piece;
          if (overflowed(piece.length)) return cut();
        }
        break;
      }
      case "finish-step":
        usage = normalizeUsage(part.usage);
        finishReason = part.finishReason;
        break;
      case "finish":
        usage = normalizeUsage(part.totalUsage);
        finishReason = part.finishReason;
        break;
      case "error":
        throw part.error;
      case "abort":
        throw options.abortReason();
      default:
        break;
    }
  }
  return { text, toolCalls, usage, finishReason, ...(refusal ? { refusal } : {}), ...(reasoning ? { reasoning } : {}), truncated: false };
}
