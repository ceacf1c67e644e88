/**
 * Box arithmetic shared by the detectors. Pure. Boxes are [x1, y1, x2, y2] in
 * pixels, x2/y2 exclusive, as python/argus/_detections.py expects them.
 */
export type Box = [number, number, number, number];

export interface Detection {
  label: string;
  score: number;
  bbox: Box;
}

export function iou(a: Box, b: Box): number {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  const union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter;
  return union > 0 ? inter / union : 0;
}

/** Greedy non-maximum suppression within each label: the best box of a cluster survives. */
export function nonMaxSuppression<T extends { label: string; score: number; bbox: Box }>(items: T[], maxIou: number): T[] {
  const kept: T[] = [];
  for (const item of [...items].sort((a, b) => b.score - a.score)) {
    if (!kept.some((other) => other.label === item.label && iou(other.bbox, item.bbox) > maxIou)) kept.push(item);
  }
  return kept;
}

/** Integer pixel box inside a width x height image; undefined when nothing of it is left. */
export function clipBox(box: Box, width: number, height: number): Box | undefined {
  const x1 = Math.max(0, Math.min(width, Math.floor(box[0])));
  const y1 = Math.max(0, Math.min(height, Math.floor(box[1])));
  const x2 = Math.max(0, Math.min(width, Math.ceil(box[2])));
  const y2 = Math.max(0, Math.min(height, Math.ceil(box[3])));
  return x2 > x1 && y2 > y1 ? [x1, y1, x2, y2] : undefined;
}

/** Scores rounded to 3 decimals: enough to rank, short in JSON. */
export function roundScore(score: number): number {
  return Math.round(Math.max(0, Math.min(1, score)) * 1000) / 1000;
}

export function byScore<T extends { score: number }>(items: T[]): T[] {
  return [...items].sort((a, b) => b.score - a.score);
}

/** Detections found on a shrunk copy, answered in the pixels of the image the caller gave. */
export function toOriginalPixels<T extends { bbox: Box }>(
  items: T[],
  from: { width: number; height: number },
  to: { width: number; height: number },
): T[] {
  if (from.width === to.width && from.height === to.height) return items;
  const sx = to.width / from.width;
  const sy = to.height / from.height;
  return items.flatMap((item) => {
    const bbox = clipBox([item.bbox[0] * sx, item.bbox[1] * sy, item.bbox[2] * sx, item.bbox[3] * sy], to.width, to.height);
    return bbox ? [{ ...item, bbox }] : [];
  });
}
