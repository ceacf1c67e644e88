/**
 * Thinking a model wrote in its reply's text: `<think>…</think>` (Qwen3, DeepSeek-R1 and QwQ
 * served without a reasoning parser), `<thinking>…</thinking>` (Argus's text protocol, and
 * Claude-style prompts), an unclosed `<think>` followed by a tagged call, or a lone `</think>`
 * whose opening tag was in the chat template (DeepSeek-R1). Thinking is shown as the step's
 * thought and is never an answer, nor a place where a call is looked for. Pure.
 */

export interface ThinkingSpan {
  start: number;
  end: number;
  /** The thinking itself, trimmed. */
  text: string;
  /** Which tag held it, and whether the model left it unclosed (or never opened it). */
  tag: "think" | "thinking";
  unclosed: boolean;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Where a call starts in text: a tag of one of `callNames`, or a Hermes `<tool_call>`. */
function callStart(callNames: readonly string[]): RegExp {
  const names = [...callNames, "tool_call"].map(escapeRegex).join("|");
  return new RegExp(`<(?:${names})[\\s/>]`, "g");
}

/**
 * Each thinking span in `text`, in order. An unclosed tag runs to the first call written after
 * it (or the next thinking tag, or the end), so the call is still read.
 */
export function thinkingSpans(text: string, callNames: readonly string[] = []): ThinkingSpan[] {
  const spans: ThinkingSpan[] = [];
  const open = /<(think|thinking)>/g;
  const calls = callStart(callNames);
  // A `</think>` before any opening tag: everything before it was thinking.
  const lone = /<\/(think|thinking)>/.exec(text);
  const firstOpen = /<(think|thinking)>/.exec(text);
  let from = 0;
  if (lone && (firstOpen === null || lone.index < firstOpen.index)) {
    const before = text.slice(0, lone.index);
    calls.lastIndex = 0;
    // Unless a call came before it: then the tag is stray text, not the end of thinking.
    if (calls.exec(before) === null) {
      spans.push({ start: 0, end: lone.index + lone[0].length, text: before.trim(), tag: lone[1] as "think" | "thinking", unclosed: true });
      from = lone.index + lone[0].length;
    }
  }
  for (;;) {
    open.lastIndex = from;
    const m = open.exec(text);
    if (!m) break;
    const tag = m[1] as "think" | "thinking";
    const bodyStart = m.index + m[0].length;
    const close = text.indexOf(`</${tag}>`, bodyStart);
    if (close !== -1) {
      spans.push({ start: m.index, end: close + tag.length + 3, text: text.slice(bodyStart, close).trim(), tag, unclosed: false });
      from = close + tag.length + 3;
      continue;
    }
    calls.lastIndex = bodyStart;
    const call = calls.exec(text);
    open.lastIndex = bodyStart;
    const next = open.exec(text);
    const end = Math.min(call?.index ?? text.length, next?.index ?? text.length);
    spans.push({ start: m.index, end, text: text.slice(bodyStart, end).trim(), tag, unclosed: true });
    from = end;
  }
  return spans;
}

/** The text with the spans cut out. */
export function withoutSpans(text: string, spans: readonly { start: number; end: number }[]): string {
  let out = "";
  let at = 0;
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    if (s.start < at) continue;
    out += text.slice(at, s.start);
    at = s.end;
  }
  return out + text.slice(at);
}

export interface SplitText {
  /** The thinking spans' text, joined; "" when there were none. */
  thinking: string;
  /** The rest of the text: what the model said outside its thinking. */
  rest: string;
  spans: ThinkingSpan[];
}

/** Thinking and the rest of a reply's text. */
export function splitThinking(text: string, callNames: readonly string[] = []): SplitText {
  const spans = thinkingSpans(text, callNames);
  if (spans.length === 0) return { thinking: "", rest: text, spans };
  return {
    thinking: spans.map((s) => s.text).filter(Boolean).join("\n\n"),
    rest: withoutSpans(text, spans),
    spans,
  };
}

/** Whether the spans show a habit of the model rather than the format Argus asked for (`<thinking>`, closed). */
export function isThinkingHabit(spans: readonly ThinkingSpan[]): boolean {
  return spans.some((s) => s.tag === "think" || s.unclosed);
}
