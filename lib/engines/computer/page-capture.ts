/**
 * Pictures of part of a page for save_image: an image element from its own file, anything else
 * as a screenshot of it or of a region of the screen.
 */
import type { Page } from "playwright-core";
import sharp from "sharp";
import { badAction } from "./errors";
import { evaluateIsolated } from "./isolated-eval";

export type CaptureTarget = { selector: string } | { region: { x: number; y: number; width: number; height: number } };

const MAX_IMAGE_FILE_BYTES = 25 * 1024 * 1024;
/** The largest element save_image screenshots, in device pixels (as the image file's decoder allows). */
const MAX_ELEMENT_SHOT_PIXELS = 50_000_000;

/** A PNG's size, from its header. */
export function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/**
 * The target as PNG. The region is checked against the screen by the caller; an image element is
 * saved from its own file (full resolution, fetched by the page through the same gates as
 * everything else); anything else, or an image the page cannot fetch, as a screenshot of it at
 * the screen's device scale.
 */
export async function capturePng(page: Page, target: CaptureTarget, options: { timeoutMs: number; deviceScaleFactor: number }): Promise<Buffer> {
  if ("region" in target) return page.screenshot({ type: "png", clip: target.region, timeout: options.timeoutMs });
  const element = page.locator(target.selector).first();
  const found = await element.count().catch(() => -1);
  if (found === -1) throw badAction(`${JSON.stringify(target.selector)} is not a CSS selector the page understands.`, "selector");
  if (found === 0) throw badAction(`Nothing on the page matches the selector ${JSON.stringify(target.selector)}.`, "selector");
  const original = await imageFile(page, await element
    // The image file an <img> shows ('' for anything else, or an image that did not load).
    // An anonymous arrow: a named one would carry the TypeScript loader's `__name` helper into the page.
    .evaluate((el) => (el instanceof HTMLImageElement && el.complete && el.naturalWidth > 0 ? el.currentSrc : ""))
    .catch(() => ""));
  if (original) return original;
  // A screenshot of an element is as big as the element, however far off the screen it reaches.
  const box = await element.boundingBox().catch(() => null);
  if (box && box.width * box.height * options.deviceScaleFactor ** 2 > MAX_ELEMENT_SHOT_PIXELS) {
    throw badAction(
      `${JSON.stringify(target.selector)} is ${Math.round(box.width)}×${Math.round(box.height)} pixels, too big to save whole; save a region of the screen instead.`,
      "selector",
    );
  }
  return element.screenshot({ type: "png", timeout: 5_000 });
}

/**
 * The page's image file: fetched through the context's gates from an isolated world (so the
 * page's own `fetch` or `btoa` cannot answer for it), at most MAX_IMAGE_FILE_BYTES, and back
 * as PNG; null when it cannot.
 */
async function imageFile(page: Page, src: string): Promise<Buffer | null> {
  if (!src) return null;
  const script = `(async () => {
    const response = await fetch(${JSON.stringify(src)}, { credentials: "include" });
    if (!response.ok) return null;
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.length > ${MAX_IMAGE_FILE_BYTES}) return null;
    let text = "";
    for (let i = 0; i < bytes.length; i += 32768) text += String.fromCharCode.apply(null, bytes.subarray(i, i + 32768));
    return btoa(text);
  })()`;
  const b64 = await evaluateIsolated(page, script).catch(() => null);
  if (typeof b64 !== "string" || b64.length > Math.ceil(MAX_IMAGE_FILE_BYTES / 3) * 4) return null;
  return sharp(Buffer.from(b64, "base64"), { limitInputPixels: 50_000_000 }).png().toBuffer().catch(() => null);
}
