/**
 * A cell's observation text (the `----- name -----` sections of
 * `lib/engines/kernels/execution-text.ts`) split back into sections and cleaned for
 * display the way a terminal would show it.
 */

export interface ParsedObservation {
  stdout: string;
  stderr: string;
  value: string;
  /** The server's caption for the pictures ("2 image(s) displayed"); the pictures are in `media`. */
  images: string;
  error: string;
  /** Text outside any known section (e.g. "(the cell ran without output)"). */
  other: string;
}

const SECTION = /^----- (stdout|stderr|value|images|error) -----$/;
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/**
 * Terminal rendering for display: colour codes dropped, and a progress bar's
 * carriage-return redraws collapsed to their final state, as a terminal shows.
 */
export function cleanTerminalText(text: string): string {
  return text
    .replace(ANSI, "")
    .split("\n")
    .map((line) => {
      const l = line.replace(/\r$/, "");
      const i = l.lastIndexOf("\r");
      return i === -1 ? l : l.slice(i + 1);
    })
    .join("\n");
}

/** Splits `executionText` output into its `----- name -----` sections. */
export function parseObservation(text: string): ParsedObservation {
  const out: ParsedObservation = { stdout: "", stderr: "", value: "", images: "", error: "", other: "" };
  const buckets: Record<keyof ParsedObservation, string[]> = { stdout: [], stderr: [], value: [], images: [], error: [], other: [] };
  let current: keyof ParsedObservation = "other";
  for (const line of text.split("\n")) {
    const m = SECTION.exec(line.replace(/\r$/, ""));
    if (m) current = m[1] as keyof ParsedObservation;
    else buckets[current].push(line);
  }
  for (const key of Object.keys(out) as (keyof ParsedObservation)[]) {
    out[key] = cleanTerminalText(buckets[key].join("\n")).replace(/^\n+|\s+$/g, "");
  }
  return out;
}
