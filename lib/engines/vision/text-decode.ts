/**
 * The pure halves of PP-OCR: turning the detector's text-probability map into
 * line boxes (DB post-processing, axis-aligned) and the recogniser's per-step
 * class probabilities into a string (CTC greedy decoding).
 */
import type { Box } from "./boxes";

export interface TextRegion {
  /** [x1, y1, x2, y2] in probability-map pixels, grown by the DB unclip margin. */
  box: Box;
  /** Mean text probability inside the region. */
  score: number;
}

export interface RegionOptions {
  /** A pixel is text when its probability is above this (DB's binarisation threshold). */
  pixelThreshold: number;
  /** A region is kept when its mean probability is at least this. */
  regionThreshold: number;
  /** DB's unclip ratio: the shrunk kernel the model predicts is grown by area x ratio / perimeter. */
  unclipRatio: number;
  /** Regions whose shorter side is below this many pixels are noise. */
  minSide: number;
}

export const DEFAULT_REGION_OPTIONS: RegionOptions = { pixelThreshold: 0.3, regionThreshold: 0.6, unclipRatio: 1.5, minSide: 3 };

/** Connected text regions (8-neighbour) of a width x height probability map. */
export function findTextRegions(prob: Float32Array, width: number, height: number, options = DEFAULT_REGION_OPTIONS): TextRegion[] {
  const seen = new Uint8Array(width * height);
  const stack = new Int32Array(width * height);
  const regions: TextRegion[] = [];
  for (let start = 0; start < prob.length; start++) {
    if (seen[start] || !(prob[start]! > options.pixelThreshold)) continue;
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    let minX = width, minY = height, maxX = -1, maxY = -1, sum = 0, count = 0;
    while (top > 0) {
      const index = stack[--top]!;
      const x = index % width;
      const y = (index - x) / width;
      sum += prob[index]!;
      count++;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const next = ny * width + nx;
          if (!seen[next] && prob[next]! > options.pixelThreshold) {
            seen[next] = 1;
            stack[top++] = next;
          }
        }
      }
    }
    const w = maxX - minX + 1;
    const h = maxY - minY + 1;
    const score = sum / count;
    if (Math.min(w, h) < options.minSide || score < options.regionThreshold) continue;
    const grow = (w * h * options.unclipRatio) / (2 * (w + h));
    regions.push({
      box: [Math.max(0, minX - grow), Math.max(0, minY - grow), Math.min(width, maxX + 1 + grow), Math.min(height, maxY + 1 + grow)],
      score,
    });
  }
  return regions;
}

/** Lines in reading order: top to bottom, and left to right within a line (boxes whose centres are within half a box height share a line). */
export function groupLines<T extends { bbox: Box }>(items: T[]): T[][] {
  const sorted = [...items].sort((a, b) => a.bbox[1] + a.bbox[3] - (b.bbox[1] + b.bbox[3]));
  const lines: T[][] = [];
  for (const item of sorted) {
    const centre = (item.bbox[1] + item.bbox[3]) / 2;
    const line = lines[lines.length - 1];
    const first = line?.[0];
    const near = first && Math.abs(centre - (first.bbox[1] + first.bbox[3]) / 2) < (first.bbox[3] - first.bbox[1]) / 2;
    if (line && near) line.push(item);
    else lines.push([item]);
  }
  return lines.map((line) => line.sort((a, b) => a.bbox[0] - b.bbox[0]));
}

/**
 * CTC greedy decoding of a steps x classes probability matrix: the best class at
 * each step, repeats merged, blanks (class 0) dropped. Class i > 0 is
 * dictionary[i - 1]. The score is the mean probability of the kept characters.
 */
export function ctcGreedy(probs: Float32Array, steps: number, classes: number, dictionary: readonly string[]): { text: string; score: number } {
  let text = "";
  let total = 0;
  let kept = 0;
  let previous = -1;
  for (let step = 0; step < steps; step++) {
    let best = 0;
    let bestProb = -Infinity;
    const offset = step * classes;
    for (let cls = 0; cls < classes; cls++) {
      const p = probs[offset + cls]!;
      if (p > bestProb) {
        bestProb = p;
        best = cls;
      }
    }
    if (best !== 0 && best !== previous) {
      text += dictionary[best - 1] ?? "";
      total += bestProb;
      kept++;
    }
    previous = best;
  }
  return { text: text.trim(), score: kept ? total / kept : 0 };
}
