/**
 * A cell's output typed from the text an older log kept. Cells Argus recorded before
 * `extras.output` existed hold only their text form (`----- stdout -----` sections, written by
 * lib/foundation/protocol/cell-output.ts in the same layout since the first version); an OpenHands stream's
 * cell holds plain text. This is the one place that text is read back, on the server, so the chat
 * gets typed fields for every session; a cell recorded now carries its typed output and never
 * comes here.
 */
import type { CellImages, CellOutput } from "@/lib/foundation/protocol/cell-output";
import { emptyCellOutput, NO_OUTPUT_TEXT } from "@/lib/foundation/protocol/cell-output-text";

type Part = "note" | "stdout" | "stderr" | "value" | "images" | "error";
const SECTION = /^----- (stdout|stderr|value|images|error) -----$/;
const CAPTION = /^(\d+) image\(s\) displayed(?:, (\d+) passed to view_image)?$/;

/** The layout cellOutputText writes: a part's lines run until the next section line. */
export function cellOutputFromText(text: string): CellOutput {
  if (text === NO_OUTPUT_TEXT) return emptyCellOutput();
  const lines: Record<Part, string[]> = { note: [], stdout: [], stderr: [], value: [], images: [], error: [] };
  const seen = new Set<Part>();
  let part: Part = "note";
  for (const line of text.split("\n")) {
    const m = SECTION.exec(line);
    if (m) {
      part = m[1] as Part;
      seen.add(part);
    } else lines[part].push(line);
  }
  const joined = (p: Part) => (seen.has(p) || p === "note" ? lines[p].join("\n") : "");
  const out: CellOutput = { ...emptyCellOutput(), stdout: joined("stdout"), stderr: joined("stderr"), value: joined("value"), error: joined("error"), note: joined("note") };
  const caption = joined("images");
  const images = imagesOf(caption);
  if (images) out.images = images;
  // A caption in words this reader does not know is kept, as words.
  else if (caption) out.note = [out.note, caption].filter(Boolean).join("\n");
  return out;
}

function imagesOf(caption: string): CellImages | null {
  const m = CAPTION.exec(caption.trim());
  return m ? { shown: Number(m[1]), viewed: Number(m[2] ?? 0) } : null;
}
