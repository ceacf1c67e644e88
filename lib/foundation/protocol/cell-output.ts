/**
 * What a Python cell answered, typed: the kernel's streams, the cell's value, how many pictures it
 * showed, and its error. The server builds it from the kernel's structured result
 * (lib/engines/kernels/execution-text.ts), stores it in the cell's observation (`extras.output`) and sends
 * it in the chat's `cell_output` item; the chat renders these fields. The text form the agents'
 * model and the vision-agent-compatible `content` read (`----- stdout -----` sections) is written
 * from it by `cellOutputText` (cell-output-text.ts), and nothing parses that text back (an old
 * log's text is read once, on the server: lib/features/runtime/legacy-cell-output.ts).
 */
import { z } from "zod";

export const CellImagesSchema = z.strictObject({
  /** Pictures the cell displayed (the files themselves travel as the item's `media`). */
  shown: z.number().int().nonnegative(),
  /** How many of them the code passed to view_image, for the planner to look at. */
  viewed: z.number().int().nonnegative(),
});
export type CellImages = z.infer<typeof CellImagesSchema>;

export const CellOutputSchema = z.strictObject({
  /** What the cell printed ("" when nothing), without its final newline. */
  stdout: z.string(),
  /** What it wrote to stderr (warnings), without its final newline. */
  stderr: z.string(),
  /** The text of the cell's value (its last expression), "" when it had none or the value was a picture. */
  value: z.string(),
  images: CellImagesSchema,
  /** The traceback (or `Name: message`) when the cell raised or was stopped; "" otherwise. */
  error: z.string(),
  /**
   * Words outside these parts: only in a cell recorded in another form (an OpenHands stream's plain
   * output), read from the log as it was; "" for every cell Argus runs.
   */
  note: z.string(),
});
export type CellOutput = z.infer<typeof CellOutputSchema>;
