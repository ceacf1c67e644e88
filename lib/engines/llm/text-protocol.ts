/**
 * Reading a tool call a model wrote as text. Many local models (Ollama and LM Studio vision
 * models, vLLM without a tool parser) cannot use OpenAI tool calls, but follow a tagged format
 * well: `<thinking>…</thinking><execute_python>code</execute_python>`. The same reader also
 * catches the shapes models fall back to on their own: Hermes/Qwen `<tool_call>{…}</tool_call>`,
 * a fenced ```json block, or a bare JSON object naming the tool.
 *
 * Pure and schema-blind: it finds calls and their raw arguments. `tagged-calls.ts` fits the
 * arguments to the tools' schemas; `tool-call.ts` validates them like native calls.
 */
import { isThinkingHabit, thinkingSpans, withoutSpans } from "./think-in-text";

export interface TaggedCall {
  name: string;
  /** The arguments as a JSON string when the model gave JSON (or nothing: "{}"), else the tag's text. */
  raw: string;
  /** The tag's text, trimmed of one leading/trailing newline; "" for `<name/>`. */
  body: string;
  /** `<name key="value">` attributes. */
  attributes: Record<string, string>;
  /** Which shape the call was written in. */
  form: "tag" | "hermes" | "json";
}

export interface TaggedReply {
  /** Every call found, in the order written. */
  calls: TaggedCall[];
  /** `<thinking>` contents, or else the text outside any call, trimmed. */
  thinking: string;
  /** The thinking was written as a model's habit (`<think>`, unclosed) rather than as asked. */
  thinkingHabit: boolean;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** One newline right inside a tag is layout, not content. */
function trimLayout(text: string): string {
  return text.replace(/^\r?\n/, "").replace(/\r?\n[ \t]*$/, "");
}

/** A value wrapped whole in a ``` fence (models fence code out of habit) loses the fence. */
export function stripFence(text: string): string {
  const m = /^\s*```[\w+-]*[ \t]*\r?\n([\s\S]*?)\r?\n?```\s*$/.exec(text);
  return m ? m[1]! : text;
}

function parseAttributes(source: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of source.matchAll(/([A-Za-z_][\w-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    out[m[1]!] = m[2] ?? m[3] ?? "";
  }
  return out;
}

function jsonObject(text: string): Record<string, unknown> | undefined {
  const trimmed = stripFence(text).trim();
  if (!trimmed.startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** `{"name": …, "arguments": …}` (OpenAI, Hermes) or `{"tool": …, "args": …}`; arguments may be a JSON string. */
function namedCall(value: Record<string, unknown>): { name: string; raw: string } | undefined {
  const name = value.name ?? value.tool ?? value.function;
  if (typeof name !== "string" || name === "") return undefined;
  const args = value.arguments ?? value.parameters ?? value.args ?? value.input ?? {};
  return { name, raw: typeof args === "string" ? args : JSON.stringify(args) };
}

interface Span {
  start: number;
  end: number;
  call: TaggedCall;
}

/** `<name …>body</name>` or `<name …/>` for each offered tool name; an unclosed tag runs to the end. */
function tagSpans(text: string, toolNames: readonly string[]): Span[] {
  if (toolNames.length === 0) return [];
  const names = toolNames.map(escapeRegex).join("|");
  // One greedy class up to ">" (a lazy one beside \\s* backtracks quadratically on a long unclosed tag).
  const open = new RegExp(`<(${names})([\\s/][^<>]*)?>`, "g");
  const spans: Span[] = [];
  let from = 0;
  for (;;) {
    open.lastIndex = from;
    const m = open.exec(text);
    if (!m) break;
    const name = m[1]!;
    const inside = m[2] ?? "";
    const selfClosing = inside.trimEnd().endsWith("/");
    const attributes = parseAttributes(inside);
    const bodyStart = m.index + m[0].length;
    let body = "";
    let end = bodyStart;
    if (!selfClosing) {
      const close = text.indexOf(`</${name}>`, bodyStart);
      body = close === -1 ? text.slice(bodyStart) : text.slice(bodyStart, close);
      end = close === -1 ? text.length : close + name.length + 3;
    }
    body = trimLayout(body);
    const object = jsonObject(body);
    const raw = object !== undefined ? JSON.stringify(object) : body.trim() === "" ? "{}" : body;
    spans.push({ start: m.index, end, call: { name, raw, body, attributes, form: "tag" } });
    from = end;
  }
  return spans;
}

/** Hermes/Qwen: `<tool_call>{"name": …, "arguments": {…}}</tool_call>`. */
function hermesSpans(text: string): Span[] {
  const spans: Span[] = [];
  for (const m of text.matchAll(/<tool_call>([\s\S]*?)(?:<\/tool_call>|$)/g)) {
    const body = trimLayout(m[1]!);
    const object = jsonObject(body);
    const named = object === undefined ? undefined : namedCall(object);
    // Broken JSON still names a call, so the model is told its JSON was broken.
    const call: TaggedCall = named
      ? { name: named.name, raw: named.raw, body, attributes: {}, form: "hermes" }
      : { name: /"name"\s*:\s*"([^"]+)"/.exec(body)?.[1] ?? "tool_call", raw: body, body, attributes: {}, form: "hermes" };
    spans.push({ start: m.index, end: m.index + m[0].length, call });
  }
  return spans;
}

/** A fenced ```json block, or the whole reply, holding one JSON object that names a tool. */
function jsonSpans(text: string, toolNames: readonly string[]): Span[] {
  const candidates: { start: number; end: number; json: string }[] = [];
  for (const m of text.matchAll(/```(?:json)?[ \t]*\r?\n([\s\S]*?)```/g)) {
    candidates.push({ start: m.index, end: m.index + m[0].length, json: m[1]! });
  }
  if (candidates.length === 0) candidates.push({ start: 0, end: text.length, json: text });
  const spans: Span[] = [];
  for (const c of candidates) {
    const object = jsonObject(c.json);
    if (object === undefined) continue;
    const named = namedCall(object);
    if (named && toolNames.includes(named.name)) {
      spans.push({ start: c.start, end: c.end, call: { ...named, body: c.json, attributes: {}, form: "json" } });
    } else if (!named && toolNames.length === 1) {
      // With one tool on offer, a bare object of arguments can only mean that tool.
      spans.push({ start: c.start, end: c.end, call: { name: toolNames[0]!, raw: JSON.stringify(object), body: c.json, attributes: {}, form: "json" } });
    }
  }
  return spans;
}

/**
 * The calls written in `text`. Tags of offered tools come first in precedence, then Hermes
 * blocks, then JSON; a later kind is looked for only where no earlier kind was found, so code
 * inside an `<execute_python>` that prints JSON is never read as a call.
 */
export function parseTaggedReply(text: string, toolNames: readonly string[]): TaggedReply {
  const thinking = thinkingSpans(text, toolNames);
  const rest = withoutSpans(text, thinking);
  let spans = tagSpans(rest, toolNames);
  if (spans.length === 0) spans = hermesSpans(rest);
  if (spans.length === 0) spans = jsonSpans(rest, toolNames);
  const outside = withoutSpans(rest, spans).trim();
  return {
    calls: spans.map((s) => s.call),
    thinking: thinking.length > 0 ? thinking.map((s) => s.text).filter(Boolean).join("\n\n") : outside,
    thinkingHabit: isThinkingHabit(thinking),
  };
}
