import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { FIXTURES } from "./support";

/**
 * Generated coin photos with a known count each: light discs on a near-black
 * table (dark enough for the count-coins scenario's watershed markers), on a
 * grid so none touch. Written as files for the browser's file chooser.
 */
export async function coinFiles(counts: readonly number[], prefix = "coins"): Promise<string[]> {
  const dir = path.join(FIXTURES, "batch");
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (const [i, count] of counts.entries()) {
    const cols = 6;
    const cell = 60;
    const width = cols * cell;
    const height = Math.max(1, Math.ceil(count / cols)) * cell;
    const discs = Array.from({ length: count }, (_, k) => `<circle cx="${(k % cols) * cell + cell / 2}" cy="${Math.floor(k / cols) * cell + cell / 2}" r="18" fill="#d8c070"/>`).join("");
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#101010"/>${discs}</svg>`;
    const file = path.join(dir, `${prefix}-${String(i).padStart(2, "0")}-${count}.png`);
    writeFileSync(file, await sharp(Buffer.from(svg)).png().toBuffer());
    files.push(file);
  }
  return files;
}

/** A file with an image's name that is not an image. */
export function corruptFile(): string {
  const file = path.join(FIXTURES, "batch", "broken.png");
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, Buffer.from("\x89PNG\r\n\x1a\n not really a picture"));
  return file;
}
