/**
 * Which boxes of a detection overlay carry their label: strongest first, a label is drawn only
 * where it does not cover one already drawn. Thirty weak guesses over twenty coins otherwise put
 * thirty labels on top of each other, and none can be read. A box without its label is still
 * drawn, and the overlay's list for screen readers names every box. Pure.
 */

/** The label's size in CSS pixels: 10 px monospace, one line, with its padding. */
const CHAR_PX = 6.4;
const PAD_PX = 8;
const LINE_PX = 13;

export interface PlacedBox {
  /** Top-left corner as percentages of the shown picture (boxPercent). */
  left: number;
  top: number;
  score: number;
  text: string;
}

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

const overlaps = (a: Rect, b: Rect): boolean => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/** For each box (in the given order), whether its label is drawn on a picture shown at `shown` CSS pixels. */
export function labelsThatFit(boxes: readonly PlacedBox[], shown: { width: number; height: number }): boolean[] {
  const order = boxes.map((_, i) => i).sort((a, b) => boxes[b]!.score - boxes[a]!.score || a - b);
  const placed: Rect[] = [];
  const drawn = boxes.map(() => false);
  for (const i of order) {
    const b = boxes[i]!;
    const rect = { x: (b.left / 100) * shown.width, y: (b.top / 100) * shown.height, w: b.text.length * CHAR_PX + PAD_PX, h: LINE_PX };
    if (placed.some((p) => overlaps(p, rect))) continue;
    placed.push(rect);
    drawn[i] = true;
  }
  return drawn;
}
