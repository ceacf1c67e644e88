/**
 * The tool calls a reply makes, whichever way the model wrote them: native `tool_calls`, or
 * text (tags of the text protocol, a Hermes `<tool_call>` block, a JSON object naming a tool).
 * Native calls win when there are any; the text beside them, and reasoning fields, are the
 * step's thinking and are never read as calls. Pure.
 */
import { truncateMiddle } from "@/lib/text/truncate-middle";
import type { ChatReply, ToolCall } from "./stream-reply";
import { parseArgs } from "./stream-reply";
import { fitTaggedCall } from "./tagged-calls";
import { parseTaggedReply } from "./text-protocol";
import type { ToolSpecs } from "./tool-schema";

/** `native`: OpenAI tool calls. `text`: tagged text, with no `tools` in the request. */
export type ToolProtocol = "native" | "text";

export interface ReplyCalls {
  calls: ToolCall[];
  /** What the model wrote beside its calls (or in `<thinking>`), and its reasoning field. */
  thinking: string;
  /** The calls were read from text rather than `tool_calls`. */
  writtenAsText: boolean;
}

/** Thinking kept per step: reasoning models can write 100 000 characters before one call. */
export const MAX_THINKING_CHARS = 8_000;

/** Distinct non-empty parts, in order (a model often repeats its reasoning in a thinking field), within MAX_THINKING_CHARS. */
export function joinThinking(...parts: (string | undefined)[]): string {
  const seen: string[] = [];
  for (const part of parts) {
    const text = part?.trim() ?? "";
    if (text !== "" && !seen.includes(text)) seen.push(text);
  }
  return truncateMiddle(seen.join("\n\n"), MAX_THINKING_CHARS);
}

export function readReplyCalls(reply: ChatReply, tools: ToolSpecs): ReplyCalls {
  if (reply.toolCalls.length > 0) {
    return { calls: reply.toolCalls, thinking: joinThinking(reply.reasoning, reply.text), writtenAsText: false };
  }
  const parsed = parseTaggedReply(reply.text, Object.keys(tools));
  const calls = parsed.calls.map((call, i): ToolCall => {
    const spec = tools[call.name];
    const raw = spec === undefined ? call.raw : fitTaggedCall(call, spec, parsed.thinking);
    const args = parseArgs(raw);
    return { id: `text_call_${i + 1}`, name: call.name, args: args.ok ? args.value : undefined, raw };
  });
  return { calls, thinking: joinThinking(reply.reasoning, parsed.thinking), writtenAsText: calls.length > 0 };
}
