/** Text the page or Playwright chooses, made fit to show a person. */

/** The longest title and address a step reports: the page chooses them. */
export const MAX_TITLE_CHARS = 300;
export const MAX_URL_CHARS = 2048;

/** Page text made fit for one line of the chat: no control or layout characters, cut short. */
export function oneLine(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** Playwright's errors carry call logs; the first line is the part a person can read. */
export function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split("\n")[0]!.slice(0, 300);
}
