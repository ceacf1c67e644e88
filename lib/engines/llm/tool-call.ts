/**
 * The model protocol's judge (DESIGN §4): is this reply exactly one call of an offered tool with
 * arguments that pass the tool's zod schema? If not, say what is wrong twice over — once for
 * the model (a correction it can act on) and once for the person (the error if repairs run out).
 * Pure: no I/O, so every bad-output case is unit-tested.
 */
import type { ModelMessage } from "ai";
import type { z } from "zod";
import type { ChatReply } from "./stream-reply";
import { readArguments } from "./repair-args";
import type { ReplyCalls, ToolProtocol } from "./reply-calls";
import type { ToolSpecs } from "./tool-schema";

export type ToolVerdict =
  | {
      ok: true;
      name: string;
      args: unknown;
      /** Names of the further calls in the same reply, which were not used. */
      ignored: string[];
    }
  | {
      ok: false;
      /** `no_call`: plain text where a call was due (corrected once only: see models.ts). */
      kind: "no_call" | "cut_off" | "other";
      /** For the person: what was wrong, as a clause ("the reply did not call a tool"). */
      problem: string;
      /** For the model: the correction sent back as a user message. */
      correction: string;
      /** For the model: the result attached to each tool call it made, by call id. */
      toolErrors: Record<string, string>;
    };

/** How much of an unusable reply is echoed back; a 200 KB reply would only waste context. */
const ECHO_LIMIT = 2_000;

const list = (names: string[]): string => names.join(", ");

/** `["items", 0, "x"]` → `items[0].x`, the way the model wrote it. */
function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** At most three issues, each naming its field: "`code`: Invalid input: expected string, …". */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const shown = issues.slice(0, 3).map((issue) => {
    const where = formatPath(issue.path);
    return where === "" ? issue.message : `\`${where}\`: ${issue.message}`;
  });
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : "";
  return `${shown.join("; ")}${more}`;
}

function fail(problem: string, correction: string, toolErrors: Record<string, string> = {}, kind: "no_call" | "cut_off" | "other" = "other"): ToolVerdict {
  return { ok: false, kind, problem, correction, toolErrors };
}

/** The server stopped the reply at its output limit (`finish_reason: "length"`), not the model. */
export const cutAtLimit = (reply: ChatReply): boolean => !reply.truncated && reply.finishReason === "length";

/** "Call exactly one of …" in the words of the protocol the model was asked to use. */
function chooseLine(names: string[], protocol: ToolProtocol): string {
  return protocol === "native"
    ? `Call exactly one of: ${list(names)}.`
    : `Write your reasoning in <thinking>…</thinking>, then exactly one of these tags: ${list(names.map((n) => `<${n}>`))}.`;
}

/** What a reply with several calls is told after the first was used. */
export function ignoredCallsNotice(used: string, ignored: readonly string[]): string | undefined {
  if (ignored.length === 0) return undefined;
  // Names come from the model's text: keep a few, each short.
  const named = ignored.slice(0, 5).map((n) => clip(n, 60).split("\n")[0]!);
  const more = ignored.length > 5 ? ", …" : "";
  return `Only your first call (${used}) was used; the other ${ignored.length} (${list(named)}${more}) ${ignored.length === 1 ? "was" : "were"} ignored. Make one call per reply.`;
}

export function checkToolReply(
  reply: ChatReply,
  read: ReplyCalls,
  tools: ToolSpecs,
  maxResponseChars: number,
  protocol: ToolProtocol = "native",
): ToolVerdict {
  const names = Object.keys(tools);
  const choose = chooseLine(names, protocol);

  if (reply.truncated) {
    return fail(
      `the reply was longer than ${maxResponseChars} characters and was cut off`,
      `Your reply was far too long (over ${maxResponseChars} characters) and was discarded. Reply with one short ${protocol === "native" ? "tool call" : "action"}. ${choose}`,
    );
  }
  if (cutAtLimit(reply)) {
    // A call cut mid-way may still parse (a shorter code cell); running it would run half the code.
    const what = protocol === "native" ? "tool call" : "action";
    return fail(
      "the reply was cut off at the model's output limit before its call was complete",
      `Your reply was cut off at your output token limit before your ${what} was complete, so nothing was run. Reply again with a shorter ${what}: less reasoning, shorter code. ${choose}`,
      {},
      "cut_off",
    );
  }
  if (reply.refusal !== undefined || reply.finishReason === "content-filter") {
    const said = reply.refusal === undefined ? "" : ` ("${reply.refusal.slice(0, 200)}")`;
    return fail(
      `the model refused or its reply was filtered${said}`,
      `Your reply was a refusal or was blocked by a content filter instead of ${protocol === "native" ? "a tool call" : "an action tag"}. ${choose}`,
    );
  }
  if (read.calls.length === 0) {
    if (reply.text.trim() === "") {
      const onlyReasoning = (reply.reasoning ?? "").trim() !== "" ? " (only reasoning, no answer)" : "";
      return fail(`the reply was empty${onlyReasoning}`, `Your reply was empty${onlyReasoning}. ${choose}`);
    }
    return protocol === "native"
      ? fail("the reply was plain text instead of a tool call", `Your reply did not call a tool. ${choose}`, {}, "no_call")
      : fail("the reply had no action tag", `Your reply had no action tag. ${choose}`, {}, "no_call");
  }

  const call = read.calls[0]!;
  const spec = tools[call.name];
  if (spec === undefined) {
    const text = `There is no tool named '${call.name}'; the tools are named ${list(names)}. ${choose}`;
    return fail(`the reply called '${call.name}', which is not one of its tools (${list(names)})`, text, { [call.id]: text });
  }
  // Habits that could be undone already were (tool-call-habits.ts); this error quotes what is left.
  const parsed = readArguments(call.raw);
  if (!parsed.ok) {
    const again = protocol === "native" ? `Call ${call.name} again with the arguments as one JSON object.` : `Write <${call.name}> again; put each field in its own tag, or give one valid JSON object.`;
    const text = `The arguments of ${call.name} were not valid JSON (${parsed.error}). ${again}`;
    return fail(`the arguments of ${call.name} were not valid JSON (${parsed.error})`, text, { [call.id]: text });
  }
  const result = spec.schema.safeParse(parsed.value);
  if (!result.success) {
    const issues = describeIssues(result.error.issues);
    const text = `The arguments of ${call.name} are invalid: ${issues}. ${protocol === "native" ? `Call ${call.name}` : `Write <${call.name}>`} again with corrected arguments.`;
    return fail(`the arguments of ${call.name} were invalid: ${issues}`, text, { [call.id]: text });
  }
  return { ok: true, name: call.name, args: result.data, ignored: read.calls.slice(1).map((c) => c.name) };
}

/** The start of an over-long text, with a marker saying how much was left out. */
export function clip(text: string, limit: number = ECHO_LIMIT): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}\n[… ${text.length - limit} more characters cut]`;
}

/**
 * The messages appended for a repair: the model's own output as an assistant message (its tool
 * calls echoed as real calls, each answered by a tool result carrying the error, because
 * OpenAI-style servers reject a tool call without a result), then the correction as a user
 * message. An empty reply is not echoed: several servers reject an empty assistant message.
 */
export function repairMessages(reply: ChatReply, read: ReplyCalls, verdict: Extract<ToolVerdict, { ok: false }>): ModelMessage[] {
  const messages: ModelMessage[] = [];
  const shown = clip(reply.text || reply.refusal || "");
  // Calls read from text are echoed as the text they were: the endpoint may not take tool messages.
  const calls = reply.truncated || cutAtLimit(reply) || read.writtenAsText ? [] : read.calls;
  if (calls.length > 0) {
    messages.push({
      role: "assistant",
      content: [
        ...(shown === "" ? [] : [{ type: "text" as const, text: shown }]),
        ...calls.map((c) => ({
          type: "tool-call" as const,
          toolCallId: c.id,
          toolName: c.name,
          input: c.args ?? clip(c.raw),
        })),
      ],
    });
    messages.push({
      role: "tool",
      content: calls.map((c) => ({
        type: "tool-result" as const,
        toolCallId: c.id,
        toolName: c.name,
        output: { type: "error-text" as const, value: verdict.toolErrors[c.id] ?? verdict.correction },
      })),
    });
  } else if (shown !== "") {
    messages.push({ role: "assistant", content: shown });
  }
  messages.push({ role: "user", content: verdict.correction });
  return messages;
}
