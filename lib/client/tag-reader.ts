/**
 * Lenient readers for the tags and JSON the server puts in chat messages
 * (`lib/runtime/projection.ts`). Total: model output is untrusted and
 * sometimes truncated, so malformed input yields null or empty values, never
 * an exception.
 */

/**
 * The text between the first `<tag>` and the last `</tag>` after it. The last
 * close tag (not the first) so that code which mentions the tag in a string
 * literal stays whole. An unclosed tag yields the rest of the text: a cut-off
 * message still shows what arrived. Null when the open tag is absent.
 */
export function between(content: string, tag: string, from = 0): { inner: string; end: number } | null {
  const open = `<${tag}>`;
  const start = content.indexOf(open, from);
  if (start === -1) return null;
  const innerStart = start + open.length;
  const close = content.lastIndexOf(`</${tag}>`);
  if (close < innerStart) return { inner: content.slice(innerStart), end: content.length };
  return { inner: content.slice(innerStart, close), end: close + tag.length + 3 };
}

/** The projection wraps code in newlines (`<tag>\n…\n</tag>`); drop exactly those. */
export function unwrapNewlines(s: string): string {
  return s.replace(/^\r?\n/, "").replace(/\r?\n$/, "");
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export const asString = (v: unknown): string => (typeof v === "string" ? v : "");
export const asStrings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
