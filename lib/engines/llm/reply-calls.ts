/**
 * The tool calls a reply makes, whichever way the model wrote them: native `tool_calls`, or
 * text (tags of the text protocol, a Hermes `<tool_call>` block, a JSON object naming a tool).
 * Native calls win when there are any; the text beside them, and reasoning fields, are the
 * step's thinking and are never read as calls. Every call then has real models' habits undone
 * (tool-call-habits.ts): this is the one place a model's calls enter Argus. Pure.
 */
import { truncateMiddle } from "@/lib/foundation/text/truncate-middle";
import type { ChatReply, ToolCall } from "./stream-reply";
import { parseArgs } from "./stream-reply";
import { fitTaggedCall } from "./tagged-calls";
import { parseTaggedReply } from "./text-protocol";
import { splitThinking } from "./think-in-text";
import { aliasesOf, resolveToolName } from "./tool-aliases";
import { normalizeCall, type ModelHabit } from "./tool-call-habits";
import type { ToolSpecs } from "./tool-schema";

/** `native`: OpenAI tool calls. `text`: tagged text, with no `tools` in the request. */
export type ToolProtocol = "native" | "text";

export interface ReplyCalls {
  calls: ToolCall[];
  /** What the model wrote beside its calls (or in `<thinking>`), and its reasoning field. */
  thinking: string;
  /** The calls were read from text rather than `tool_calls`. */
  writtenAsText: boolean;
  /** The model habits undone to read the reply (for health). */
  habits: ModelHabit[];
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

/** Each call normalized, and every habit undone on the way (once each). */
function normalized(calls: readonly ToolCall[], tools: ToolSpecs, thinking: string, habits: ModelHabit[]): ToolCall[] {
  return calls.map((raw) => {
    const { call, habits: undone } = normalizeCall(raw, tools, thinking);
    for (const habit of undone) if (!habits.includes(habit)) habits.push(habit);
    return call;
  });
}

export function readReplyCalls(reply: ChatReply, tools: ToolSpecs): ReplyCalls {
  const names = Object.keys(tools);
  if (reply.toolCalls.length > 0) {
    // `<think>` beside native calls (a reasoning model served without a reasoning parser) is thinking.
    const split = splitThinking(reply.text, names);
    const habits: ModelHabit[] = split.spans.length > 0 ? ["thinking_in_text"] : [];
    const thinking = joinThinking(reply.reasoning, split.thinking, split.rest);
    return { calls: normalized(reply.toolCalls, tools, thinking, habits), thinking, writtenAsText: false, habits };
  }
  const parsed = parseTaggedReply(reply.text, [...names, ...aliasesOf(names)]);
  const habits: ModelHabit[] = parsed.thinkingHabit ? ["thinking_in_text"] : [];
  const calls = parsed.calls.map((call, i): ToolCall => {
    const target = resolveToolName(call.name, names);
    const raw = target === undefined ? call.raw : fitTaggedCall(call, tools[target]!, parsed.thinking);
    const args = parseArgs(raw);
    return { id: `text_call_${i + 1}`, name: call.name, args: args.ok ? args.value : undefined, raw };
  });
  const thinking = joinThinking(reply.reasoning, parsed.thinking);
  return { calls: normalized(calls, tools, thinking, habits), thinking, writtenAsText: calls.length > 0, habits };
}
