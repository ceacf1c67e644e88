/**
 * Where the tool-review card's slider starts when the judge names no threshold: the lowest
 * confidence at which the chosen tool's boxes stop stacking on one another. The candidates run
 * at 0.05 so the person can go down to it, but a card opening there on a tool that reports many
 * weak, overlapping guesses (29 boxes over 24 coins) shows a pile of labels nobody can read.
 * Pure; the detections are the kernel's word, so bad boxes are simply not counted.
 */

export interface ScoredBox {
  score: number;
  /** [x1, y1, x2, y2] in image pixels. */
  bbox: readonly number[];
}

/** Boxes overlapping more than this (intersection over union) count as stacked. */
export const STACKED_IOU = 0.3;

function area(b: readonly number[]): number {
  return Math.max(0, b[2]! - b[0]!) * Math.max(0, b[3]! - b[1]!);
}

export function iou(a: readonly number[], b: readonly number[]): number {
  const inter = area([Math.max(a[0]!, b[0]!), Math.max(a[1]!, b[1]!), Math.min(a[2]!, b[2]!), Math.min(a[3]!, b[3]!)]);
  const union = area(a) + area(b) - inter;
  return union > 0 ? inter / union : 0;
}

const usable = (d: ScoredBox): boolean => Number.isFinite(d.score) && d.bbox.length === 4 && d.bbox.every(Number.isFinite);

/**
 * The smallest threshold (in steps of 0.01, at least `floor`) at which no two boxes scoring at or
 * above it overlap by more than STACKED_IOU. Boxes are taken strongest first; the first one that
 * stacks on a stronger one sets the threshold just above its own score.
 */
export function separatingThreshold(detections: readonly ScoredBox[], floor: number): number {
  const boxes = detections.filter(usable).sort((a, b) => b.score - a.score);
  const kept: ScoredBox[] = [];
  for (const box of boxes) {
    if (box.score < floor) break;
    if (kept.some((k) => iou(k.bbox, box.bbox) > STACKED_IOU)) {
      return Math.min(1, Math.max(floor, Math.floor(box.score * 100) / 100 + 0.01));
    }
    kept.push(box);
  }
  return floor;
}
