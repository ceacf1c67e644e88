/**
 * The model protocol's judge (DESIGN §4): is this reply exactly one call of an offered tool with
 * arguments that pass the tool's zod schema? If not, say what is wrong twice over — once for
 * the model (a correction it can act on) and once for the person (the error if repairs run out).
 * Pure: no I/O, so every bad-output case is unit-tested.
 */
import type { ModelMessage } from "ai";
import type { z } from "zod";
import type { ChatReply } from "./stream-reply";
import { parseArgs } from "./stream-reply";
import type { ToolSpecs } from "./tool-schema";

export type ToolVerdict =
  | { ok: true; name: string; args: unknown }
  | {
      ok: false;
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

function fail(problem: string, correction: string, toolErrors: Record<string, string> = {}): ToolVerdict {
  return { ok: false, problem, correction, toolErrors };
}

export function checkToolReply(reply: ChatReply, tools: ToolSpecs, maxResponseChars: number): ToolVerdict {
  const names = Object.keys(tools);
  const choose = `Call exactly one of: ${list(names)}.`;

  if (reply.truncated) {
    return fail(
      `the reply was longer than ${maxResponseChars} characters and was cut off`,
      `Your reply was far too long (over ${maxResponseChars} characters) and was discarded. Reply with one short tool call. ${choose}`,
    );
  }
  if (reply.refusal !== undefined || reply.finishReason === "content-filter") {
    const said = reply.refusal === undefined ? "" : ` ("${reply.refusal.slice(0, 200)}")`;
    return fail(
      `the model refused or its reply was filtered${said}`,
      `Your reply was a refusal or was blocked by a content filter instead of a tool call. ${choose}`,
    );
  }
  if (reply.toolCalls.length === 0) {
    return reply.text.trim() === ""
      ? fail("the reply was empty", `Your reply was empty. ${choose}`)
      : fail("the reply was plain text instead of a tool call", `Your reply did not call a tool. ${choose}`);
  }
  if (reply.toolCalls.length > 1) {
    const called = list(reply.toolCalls.map((c) => c.name));
    const notRun = "Not run: only one tool call per reply is allowed.";
    return fail(
      `the reply called ${reply.toolCalls.length} tools (${called}) instead of one`,
      `Your reply called ${reply.toolCalls.length} tools (${called}); none of them was run. Call exactly one tool per reply. ${choose}`,
      Object.fromEntries(reply.toolCalls.map((c) => [c.id, notRun])),
    );
  }

  const call = reply.toolCalls[0]!;
  const spec = tools[call.name];
  if (spec === undefined) {
    const text = `There is no tool named '${call.name}'. ${choose}`;
    return fail(`the reply called '${call.name}', which is not one of its tools (${list(names)})`, text, { [call.id]: text });
  }
  const parsed = parseArgs(call.raw);
  if (!parsed.ok) {
    const text = `The arguments of ${call.name} were not valid JSON (${parsed.error}). Call ${call.name} again with the arguments as one JSON object.`;
    return fail(`the arguments of ${call.name} were not valid JSON (${parsed.error})`, text, { [call.id]: text });
  }
  const result = spec.schema.safeParse(parsed.value);
  if (!result.success) {
    const issues = describeIssues(result.error.issues);
    const text = `The arguments of ${call.name} are invalid: ${issues}. Call ${call.name} again with corrected arguments.`;
    return fail(`the arguments of ${call.name} were invalid: ${issues}`, text, { [call.id]: text });
  }
  return { ok: true, name: call.name, args: result.data };
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
export function repairMessages(reply: ChatReply, verdict: Extract<ToolVerdict, { ok: false }>): ModelMessage[] {
  const messages: ModelMessage[] = [];
  const shown = clip(reply.text || reply.refusal || "");
  const calls = reply.truncated ? [] : reply.toolCalls;
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
