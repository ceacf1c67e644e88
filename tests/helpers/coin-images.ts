import sharp from "sharp";

/**
 * A synthetic photo of `count` coins: light discs on a dark table, laid out on
 * a grid so none touch, with a little jitter so no two images are alike.
 * COUNT_COINS_CODE counts them exactly.
 */
export async function coinImage(count: number, seed = count): Promise<Buffer> {
  const cols = 6;
  const cell = 60;
  const width = cols * cell;
  const height = Math.max(1, Math.ceil(count / cols)) * cell;
  let state = seed * 9301 + 49297;
  const jitter = () => ((state = (state * 9301 + 49297) % 233280) / 233280 - 0.5) * 10;
  const discs = Array.from({ length: count }, (_, i) => {
    const cx = (i % cols) * cell + cell / 2 + jitter();
    const cy = Math.floor(i / cols) * cell + cell / 2 + jitter();
    return `<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="18" fill="#d8c070"/>`;
  }).join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#101010"/>${discs}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A count-coins function as the coder would write it: threshold, label, count; saves an overlay next to the input. */
export const COUNT_COINS_CODE = `from argus import *
import numpy as np
from skimage import measure


def count_coins(image_path):
    image = load_image(image_path)
    bright = image.mean(axis=2) > 100
    labels = measure.label(bright)
    regions = [r for r in measure.regionprops(labels) if r.area > 200]
    boxes = [{"label": "coin", "score": 1.0, "bbox": [r.bbox[1], r.bbox[0], r.bbox[3], r.bbox[2]]} for r in regions]
    save_image(overlay_bounding_boxes(image, boxes), "coins_overlay.png")
    return {"count": np.int64(len(regions)), "areas": np.array([r.area for r in regions])}
`;
