/**
 * Which links and image URLs from model-written Markdown the chat may follow
 * or load. The model's text is untrusted, so anything not known safe is inert.
 */

export type LinkTarget = { kind: "external"; href: string } | { kind: "internal"; href: string } | { kind: "inert" };

/**
 * How a Markdown link may render. http(s) opens in a new tab; same-origin
 * paths, fragments and mailto stay ordinary links; anything else (javascript:,
 * data:, vbscript:, protocol-relative `//host`) is shown as text only.
 */
export function classifyLink(href: string | null | undefined): LinkTarget {
  const h = (href ?? "").trim();
  if (!h) return { kind: "inert" };
  if (/^https?:\/\//i.test(h)) return { kind: "external", href: h };
  if (/^mailto:/i.test(h)) return { kind: "internal", href: h };
  // Browsers ignore tabs/newlines inside schemes ("java\tscript:"), so any
  // colon before the first / ? # means a scheme we do not allow.
  if (h.startsWith("//") || h.startsWith("\\")) return { kind: "inert" };
  const colon = h.indexOf(":");
  const firstDelimiter = h.search(/[/?#]/);
  if (colon !== -1 && (firstDelimiter === -1 || colon < firstDelimiter)) return { kind: "inert" };
  return { kind: "internal", href: h };
}

/** Images the chat may load: same-origin paths (not `//host`) and http(s). */
export function isSafeImageUrl(src: string): boolean {
  const t = classifyLink(src);
  return t.kind === "external" || (t.kind === "internal" && !/^mailto:/i.test(src.trim()));
}
