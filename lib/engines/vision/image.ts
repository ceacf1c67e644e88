/**
 * Turns the caller's PNG/JPEG/WebP bytes into packed RGB for a worker, shrunk to
 * what the model family can use (sharp decodes on libuv's thread pool, so the
 * event loop stays free). Pixels are taken as stored: no EXIF rotation, so boxes
 * match the array a Python caller holds.
 */
import sharp, { type Metadata } from "sharp";
import { VisionError } from "./errors";
import type { WorkerImage } from "./protocol";

/** The same ceiling as the Python tools (python/argus/images.py), checked before decoding. */
export const MAX_MEGAPIXELS = 40;
const FORMATS = new Set(["png", "jpeg", "webp"]);

export async function decodeImage(given: Buffer | Uint8Array, maxEdge: number): Promise<WorkerImage> {
  if (!(given instanceof Uint8Array)) {
    throw new VisionError("bad_image", "The image must be the bytes of a PNG, JPEG or WebP file.");
  }
  const bytes = Buffer.isBuffer(given) ? given : Buffer.from(given.buffer, given.byteOffset, given.byteLength);
  if (bytes.length === 0) {
    throw new VisionError("bad_image", "The image is empty: send the bytes of a PNG, JPEG or WebP file.");
  }
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new VisionError("bad_image", "The image could not be read: it is not a PNG, JPEG or WebP file, or it is corrupt.");
  }
  if (!metadata.format || !FORMATS.has(metadata.format)) {
    throw new VisionError("bad_image", `The image is ${metadata.format ?? "of an unknown format"}; send a PNG, JPEG or WebP file.`);
  }
  const width = metadata.width ?? 0;
  const height = metadata.height ?? 0;
  if (width < 2 || height < 2) {
    throw new VisionError("bad_image", `The image is ${width}x${height} pixels, too small to look at; send a real picture.`);
  }
  if (width * height > MAX_MEGAPIXELS * 1e6) {
    throw new VisionError(
      "bad_image",
      `The image is ${width}x${height} (${((width * height) / 1e6).toFixed(0)} MP), above the ${MAX_MEGAPIXELS} MP limit; shrink it or send tiles.`,
    );
  }
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: false, failOn: "error" })
      .resize({ width: maxEdge, height: maxEdge, fit: "inside", withoutEnlargement: true })
      .flatten({ background: "#ffffff" })
      .toColourspace("srgb")
      .raw({ depth: "uchar" })
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`decoded to ${info.channels} channels`);
    return {
      data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      width: info.width,
      height: info.height,
      originalWidth: width,
      originalHeight: height,
    };
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new VisionError("bad_image", `The image could not be decoded (${reason}); it may be truncated or corrupt.`);
  }
}
