/** Cutting long text (cell output, observations) for a model, keeping what matters. */

const omittedMarker = (n: number) => `[... ${n} characters omitted ...]`;

/** How far a cut may move to land on a line break (cleaner output, negligible loss). */
const SNAP_WINDOW = 200;

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * Keeps the head (about 40%) and the tail (about 60%: errors and final results print last) of
 * `text`, joined by a marker line "[... N characters omitted ...]" where N is exact. The result is
 * at most `maxChars` long; when even the marker does not fit, the marker alone is returned.
 * Cuts move to a nearby line break when there is one, and never split a surrogate pair.
 */
export function truncateMiddle(text: string, maxChars: number): string {
  if (!Number.isFinite(maxChars) || maxChars < 0) throw new RangeError(`maxChars must be a non-negative number, got ${maxChars}`);
  if (text.length <= maxChars) return text;
  // Reserve room for the marker as if every character were omitted (its widest form) + 2 newlines.
  const keep = Math.floor(maxChars) - omittedMarker(text.length).length - 2;
  if (keep <= 0) return omittedMarker(text.length);
  const headLen = Math.floor(keep * 0.4);
  const tailLen = keep - headLen;
  const head = snapHeadEnd(text, headLen);
  const tail = snapTailStart(text, text.length - tailLen);
  return `${text.slice(0, head)}\n${omittedMarker(tail - head)}\n${text.slice(tail)}`;
}

/** End of the head: just before a newline within the window (that newline is omitted). */
function snapHeadEnd(text: string, end: number): number {
  const window = Math.min(SNAP_WINDOW, Math.floor(end / 4));
  const newline = text.lastIndexOf("\n", end);
  if (newline > 0 && newline >= end - window) return newline;
  return end > 0 && isHighSurrogate(text.charCodeAt(end - 1)) ? end - 1 : end;
}

/** Start of the tail: just after a newline within the window. */
function snapTailStart(text: string, start: number): number {
  const window = Math.min(SNAP_WINDOW, Math.floor((text.length - start) / 4));
  const newline = text.indexOf("\n", start - 1);
  if (newline !== -1 && newline + 1 < text.length && newline + 1 <= start + window) return newline + 1;
  return isLowSurrogate(text.charCodeAt(start)) ? start + 1 : start;
}
