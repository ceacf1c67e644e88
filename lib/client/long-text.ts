/**
 * A long message is shown collapsed to its beginning: a pasted log or article would otherwise fill
 * the screen and bury the answer under it. Pure, so the cut is unit-tested.
 */
export interface Collapse {
  /** Lines kept while collapsed. */
  lines: number;
  /** Characters kept while collapsed (one huge line counts too). */
  chars: number;
}

export const MESSAGE_COLLAPSE: Collapse = { lines: 12, chars: 1200 };

/** The beginning shown while collapsed, or null when the text is short enough to show whole. */
export function collapsedPreview(text: string, limit: Collapse = MESSAGE_COLLAPSE): string | null {
  const lines = text.split("\n");
  // Some slack, so "Show more" never hides just a line or a few words.
  if (lines.length <= limit.lines + 3 && text.length <= limit.chars * 1.25) return null;
  const head = lines.slice(0, limit.lines).join("\n").slice(0, limit.chars);
  // End on a word boundary when there is one near the cut.
  const space = head.lastIndexOf(" ");
  const cut = space > limit.chars * 0.8 ? head.slice(0, space) : head;
  return `${cut.trimEnd()}…`;
}
