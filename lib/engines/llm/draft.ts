/**
 * A model reply still being written, and what a person should see of it. `collectReply` keeps
 * the raw accumulation (`ReplyDraft`); `draftView` turns it into the step's fields (thinking,
 * code, the reply…) however the model is writing its call: native tool-call arguments (partial
 * JSON), tagged text (`<thinking>…</thinking><execute_python>…`), a tag holding JSON, a Hermes
 * `<tool_call>` block, or a bare JSON object. Pure, total and schema-blind: the finished reply
 * is read by `reply-calls.ts`; this only has to look right while it grows, and end as the same
 * text the call's arguments hold.
 */
import type { DraftView } from "@/lib/foundation/protocol/socket";
import { partialJsonStrings } from "./partial-json";
import { parseTaggedReply, type TaggedCall } from "./text-protocol";
import { splitThinking } from "./think-in-text";
import type { DraftField } from "./tool-schema";

/** The raw accumulation of one model reply so far. Starts over when the call restarts. */
export interface ReplyDraft {
  /** Text content (under the text protocol, the tagged call itself). */
  text: string;
  /** The endpoint's reasoning stream (`reasoning_content`). */
  reasoning: string;
  /** The first native tool call's name, once the model starts one. */
  toolName: string | null;
  /** That call's arguments so far (JSON, possibly cut anywhere). */
  toolInput: string;
  /**
   * The tags of the tools the call offers that are read while drafting, and the field each
   * tag's plain text fills (each tool's `draft`, tool-schema.ts); ModelClient.callTool sets it.
   */
  tags?: Readonly<Record<string, DraftField | null>>;
}

export const EMPTY_DRAFT: ReplyDraft = Object.freeze({ text: "", reasoning: "", toolName: null, toolInput: "" });

type Field = Exclude<keyof DraftView, "tool" | "thinking"> & DraftField;

/** Argument names shown, by the view field they fill. */
const FIELDS: Record<string, Field | "thinking"> = {
  thinking: "thinking",
  thoughts: "thinking",
  code: "code",
  test: "test",
  response: "response",
  question: "question",
  plan: "plan",
};


/**
 * A tag being typed at the very end (`<execute_pyt`, `</thin`) is held back: shown now, it
 * would flash as text and vanish when its `>` arrives.
 */
function withoutPartialTag(text: string): string {
  const m = /<\/?[A-Za-z_]*$/.exec(text);
  return m ? text.slice(0, m.index) : text;
}

/** A code fence opened at the start (and closed at the end, once it is) is layout, not content. */
function withoutFence(text: string): string {
  const open = /^\s*```[\w+-]*[ \t]*(\r?\n|$)/.exec(text);
  if (!open) return text;
  // The fence line itself is still being written: nothing to show yet.
  if (open[1] === "") return "";
  const body = text.slice(open[0].length);
  return body.replace(/\r?\n?```\s*$/, "");
}

/** The body starts like a JSON object (`{` alone, or `{"key`), which is how it will be read. */
const looksLikeJson = (text: string): boolean => /^\{\s*("|$)/.test(text);

/** Distinct non-empty parts, in order; a part that only repeats the start of an earlier one (a field catching up) is left out. */
function joinThinking(parts: readonly (string | undefined)[]): string {
  const seen: string[] = [];
  for (const part of parts) {
    const text = part?.trim() ?? "";
    if (text !== "" && !seen.some((s) => s.startsWith(text))) seen.push(text);
  }
  return seen.join("\n\n");
}

interface CallFields {
  tool?: string;
  thinking?: string;
  values: Partial<Record<Field, string>>;
}

function fromStrings(strings: Map<string, string>, tool: string | undefined): CallFields {
  const values: Partial<Record<Field, string>> = {};
  let thinking: string | undefined;
  for (const [key, value] of strings) {
    const field = FIELDS[key];
    if (field === "thinking") thinking ??= value;
    else if (field !== undefined) values[field] ??= value;
  }
  const named = strings.get("name") ?? strings.get("tool");
  return { tool: tool ?? named, thinking, values };
}

function childTag(body: string, name: string): string | undefined {
  const open = body.indexOf(`<${name}>`);
  if (open === -1) return undefined;
  const start = open + name.length + 2;
  const close = body.indexOf(`</${name}>`, start);
  return (close === -1 ? body.slice(start) : body.slice(start, close)).replace(/^\r?\n/, "").replace(/\r?\n[ \t]*$/, "");
}

/** One tagged call: JSON in the tag, child tags per field, or the tag's text for its main field. */
function fromTaggedCall(call: TaggedCall, tags: Readonly<Record<string, Field | null>>): CallFields {
  if (call.form !== "tag") {
    // Hermes or JSON: `raw` is the arguments once complete, the whole block while still partial.
    const fields = fromStrings(partialJsonStrings(call.raw), undefined);
    // "tool_call" is the parser's stand-in while the block has not named its tool yet.
    return { ...fields, tool: call.name !== "tool_call" ? call.name : fields.tool };
  }
  const body = withoutFence(call.body);
  if (looksLikeJson(body.trim())) return fromStrings(partialJsonStrings(body.trim()), call.name);
  const values: Partial<Record<Field, string>> = {};
  let thinking: string | undefined;
  let children = false;
  for (const [name, field] of Object.entries(FIELDS)) {
    const value = childTag(body, name);
    if (value === undefined) continue;
    children = true;
    if (field === "thinking") thinking ??= value;
    else values[field] ??= withoutFence(value);
  }
  const main = tags[call.name];
  if (!children && main != null && body !== "") values[main] = body;
  return { tool: call.name, thinking, values };
}

function view(tool: string | undefined, thinking: string, values: Partial<Record<Field, string>>): DraftView {
  const out: DraftView = {};
  if (tool) out.tool = tool;
  if (thinking) out.thinking = thinking;
  for (const [field, value] of Object.entries(values) as [Field, string][]) {
    if (value !== "") out[field] = value;
  }
  return out;
}

/** Tagged text, Hermes or JSON written as the reply's text (the text protocol, or a model improvising). */
function textView(draft: ReplyDraft): DraftView {
  const text = withoutPartialTag(draft.text);
  const tags = draft.tags ?? {};
  const parsed = parseTaggedReply(text, Object.keys(tags));
  const first = parsed.calls[0];
  if (first !== undefined) {
    const call = fromTaggedCall(first, tags);
    return view(call.tool, joinThinking([draft.reasoning, parsed.thinking, call.thinking]), call.values);
  }
  // A JSON object still being written is not a call yet for the parser; read it as one.
  const outside = withoutFence(text.replace(/<(thinking|think)>[\s\S]*?(?:<\/\1>|$)/g, "").trim()).trim();
  if (looksLikeJson(outside)) {
    const call = fromStrings(partialJsonStrings(outside), undefined);
    const tagged = /<(thinking|think)>/.test(text) ? parsed.thinking : "";
    return view(call.tool, joinThinking([draft.reasoning, tagged, call.thinking]), call.values);
  }
  return view(undefined, joinThinking([draft.reasoning, parsed.thinking]), {});
}

/** What a person should see of `draft`: the reply's fields so far, decoded. */
export function draftView(draft: ReplyDraft): DraftView {
  if (draft.toolName === null) return textView(draft);
  const call = fromStrings(partialJsonStrings(draft.toolInput), draft.toolName);
  // `<think>…</think>` beside a native call is thinking: shown without its tags, as the finished reply will be.
  const text = splitThinking(withoutPartialTag(draft.text));
  return view(call.tool, joinThinking([draft.reasoning, text.thinking, text.rest, call.thinking]), call.values);
}
