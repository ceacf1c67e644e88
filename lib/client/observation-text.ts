/**
 * A cell's typed output (lib/foundation/protocol/cell-output.ts) cleaned for display the way a terminal would
 * show it. The fields come typed from the server; nothing here looks for structure in text.
 */
import type { CellOutput } from "@/lib/foundation/protocol/cell-output";
import { imagesCaption, isEmptyCellOutput, NO_OUTPUT_TEXT } from "@/lib/foundation/protocol/cell-output-text";

export interface CellOutputView {
  stdout: string;
  stderr: string;
  value: string;
  /** The caption for the pictures ("2 image(s) displayed"); the pictures are in the item's `media`. */
  images: string;
  error: string;
  /** Words outside the parts: an older log's plain output, or the no-output sentence. */
  other: string;
}

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

/** One part as shown: terminal-cleaned, without blank lines before it or trailing space after it. */
const shown = (text: string) => cleanTerminalText(text).replace(/^\n+|\s+$/g, "");

/** The output's parts as the chat shows them. */
export function cellOutputView(o: CellOutput): CellOutputView {
  return {
    stdout: shown(o.stdout),
    stderr: shown(o.stderr),
    value: shown(o.value),
    images: imagesCaption(o.images),
    error: shown(o.error),
    other: isEmptyCellOutput(o) ? NO_OUTPUT_TEXT : shown(o.note),
  };
}

/** A command's, file operation's or run's text output as shown (no parts to find in it). */
export function plainOutputView(text: string): string {
  return shown(text);
}
