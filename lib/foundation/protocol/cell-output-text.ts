/**
 * A cell's typed output (cell-output.ts) in words: its text form, the pictures' caption, and the
 * empty output. Type-only imports, so the chat page uses these without shipping zod.
 */
import type { CellImages, CellOutput } from "./cell-output";

/** What the text form says for a cell that printed, showed and returned nothing. */
export const NO_OUTPUT_TEXT = "(the cell ran without output)";

/** A cell output with nothing in it (the start for builders and readers). */
export function emptyCellOutput(): CellOutput {
  return { stdout: "", stderr: "", value: "", images: { shown: 0, viewed: 0 }, error: "", note: "" };
}

/** "2 image(s) displayed, 1 passed to view_image"; "" when the cell showed none. */
export function imagesCaption(images: CellImages): string {
  if (images.shown === 0) return "";
  return `${images.shown} image(s) displayed${images.viewed ? `, ${images.viewed} passed to view_image` : ""}`;
}

/** True when the cell printed, returned and showed nothing (the text form then says NO_OUTPUT_TEXT). */
export function isEmptyCellOutput(o: CellOutput): boolean {
  return !o.note && !o.stdout && !o.stderr && !o.value && o.images.shown === 0 && !o.error;
}

/**
 * The text form agents read and the compatible `content` carries: each part that has something,
 * under its `----- name -----` line, in a fixed order.
 */
export function cellOutputText(o: CellOutput): string {
  if (isEmptyCellOutput(o)) return NO_OUTPUT_TEXT;
  const parts: string[] = [];
  if (o.note) parts.push(o.note);
  if (o.stdout) parts.push(`----- stdout -----\n${o.stdout}`);
  if (o.stderr) parts.push(`----- stderr -----\n${o.stderr}`);
  if (o.value) parts.push(`----- value -----\n${o.value}`);
  if (o.images.shown > 0) parts.push(`----- images -----\n${imagesCaption(o.images)}`);
  if (o.error) parts.push(`----- error -----\n${o.error}`);
  return parts.join("\n");
}
