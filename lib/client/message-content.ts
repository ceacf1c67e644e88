/**
 * Pure converters from the chat's wire messages to what the chat UI draws:
 * the contents of planner, coder and interaction messages. Everything here is
 * a string → data function with no React and no I/O, so the tag formats of
 * `lib/runtime/projection.ts` are pinned by unit tests beside this file.
 *
 * Every parser is total: model output is untrusted and sometimes truncated,
 * so malformed input yields empty fields or null, never an exception that
 * would blank the whole chat.
 */
import { asString, asStrings, between, isRecord, parseJson, unwrapNewlines } from "./tag-reader";

export interface ParsedStep {
  thinking: string;
  code: string;
}

/**
 * `<thinking>…</thinking>\n<execute_python>\n…\n</execute_python>` (thinking
 * optional). The thinking ends at its first close tag — it precedes the code,
 * and code is the part most likely to contain tag-like strings.
 */
export function parseStep(content: string): ParsedStep {
  let thinking = "";
  let rest = content;
  const tStart = content.indexOf("<thinking>");
  const codeStart = content.indexOf("<execute_python>");
  if (tStart !== -1 && (codeStart === -1 || tStart < codeStart)) {
    const innerStart = tStart + "<thinking>".length;
    const tEnd = content.indexOf("</thinking>", innerStart);
    if (tEnd === -1) {
      // Unclosed thinking: it runs up to the code, if any.
      thinking = content.slice(innerStart, codeStart === -1 ? undefined : codeStart);
      rest = codeStart === -1 ? "" : content.slice(codeStart);
    } else {
      thinking = content.slice(innerStart, tEnd);
      rest = content.slice(tEnd + "</thinking>".length);
    }
  }
  const code = between(rest, "execute_python");
  return { thinking: thinking.trim(), code: code ? unwrapNewlines(code.inner) : "" };
}

/** Whether a planner/coder message is a code step (as opposed to a plan, final code or a note). */
export function isStep(content: string): boolean {
  return content.includes("<execute_python>");
}

export interface FinalCode {
  code: string;
  test: string;
}

/** `<final_code>…</final_code>\n<final_test>…</final_test>`; null without a final_code tag. */
export function parseFinalCode(content: string): FinalCode | null {
  const testStart = content.indexOf("<final_test>");
  // Bound the code by the test tag so the code's "last close tag" is its own.
  const codePart = testStart === -1 ? content : content.slice(0, testStart);
  const code = between(codePart, "final_code");
  if (!code) return null;
  const test = testStart === -1 ? null : between(content.slice(testStart), "final_test");
  return { code: unwrapNewlines(code.inner), test: test ? unwrapNewlines(test.inner) : "" };
}

export interface ParsedPlan {
  plan: string;
  instructions: string[];
  code: string;
}

/** `<plan>{"plan", "instructions", "code"}</plan>`; null when absent or not a JSON object. */
export function parsePlan(content: string): ParsedPlan | null {
  const tag = between(content, "plan");
  if (!tag) return null;
  const data = parseJson(tag.inner);
  if (!isRecord(data)) return null;
  const instructions = Array.isArray(data.instructions)
    ? asStrings(data.instructions)
    : asString(data.instructions)
        .split("\n")
        .map((s) => s.trim())
        .filter(Boolean);
  return { plan: asString(data.plan), instructions, code: asString(data.code) };
}

type InteractionKind = "question" | "tool_review" | "safety";

export interface ParsedInteraction {
  kind: InteractionKind;
  prompt: string;
  options: string[];
  payload: unknown;
}

/** `<interaction>{kind, prompt, options, payload}</interaction>`; null when malformed or of an unknown kind. */
export function parseInteraction(content: string): ParsedInteraction | null {
  const tag = between(content, "interaction");
  if (!tag) return null;
  const data = parseJson(tag.inner);
  if (!isRecord(data)) return null;
  if (data.kind !== "question" && data.kind !== "tool_review" && data.kind !== "safety") return null;
  return { kind: data.kind, prompt: asString(data.prompt), options: asStrings(data.options), payload: data.payload ?? null };
}
