/**
 * Pictures for the model (DESIGN §4: long edge ≤ 1568 px). Vision models tile or resize larger
 * images themselves, so sending more pixels only costs tokens and upload time.
 *
 * Format: a JPEG source stays JPEG (quality 90): it is a photo, and PNG would make it several
 * times larger for no visible gain. Everything else (PNG, WebP, GIF, TIFF, …) becomes PNG,
 * which keeps plot lines, masks and text sharp — the planner's own figures are mostly that.
 * An image that is already small, upright and PNG/JPEG is passed through byte for byte.
 */
import sharp from "sharp";

interface ImagePart {
  type: "image";
  image: Uint8Array;
  mediaType: "image/png" | "image/jpeg";
}

/**
 * The AI SDK image part plus the size the model receives (after orientation and downscaling).
 * Pass `{type, image, mediaType}` into a message; the SDK ignores the extra fields anyway.
 */
export interface PreparedImage extends ImagePart {
  width: number;
  height: number;
}

export const MAX_EDGE = 1568;

/** Target size for a long-edge cap; never upscales. Pure. */
export function fitWithin(width: number, height: number, maxEdge: number): { width: number; height: number } {
  const longest = Math.max(width, height);
  if (longest <= maxEdge) return { width, height };
  const scale = maxEdge / longest;
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** EXIF orientations 5–8 turn the picture a quarter, swapping width and height. */
function upright(width: number, height: number, orientation: number | undefined): { width: number; height: number } {
  return orientation !== undefined && orientation >= 5 ? { width: height, height: width } : { width, height };
}

export async function imagePart(bytes: Uint8Array, options: { maxEdge?: number } = {}): Promise<PreparedImage> {
  const maxEdge = options.maxEdge ?? MAX_EDGE;
  const meta = await sharp(bytes).metadata();
  if (meta.width === undefined || meta.height === undefined) throw new Error("The image has no dimensions.");
  const source = upright(meta.width, meta.height, meta.orientation);
  const target = fitWithin(source.width, source.height, maxEdge);
  const jpeg = meta.format === "jpeg";
  const rotated = meta.orientation !== undefined && meta.orientation !== 1;
  const resized = target.width !== source.width || target.height !== source.height;

  if (!resized && !rotated && (jpeg || meta.format === "png")) {
    return { type: "image", image: bytes, mediaType: jpeg ? "image/jpeg" : "image/png", ...source };
  }
  // rotate() with no angle applies the EXIF orientation, so the model sees what a person sees.
  let pipeline = sharp(bytes).rotate();
  if (resized) pipeline = pipeline.resize(target.width, target.height, { fit: "fill" });
  const { data, info } = jpeg
    ? await pipeline.jpeg({ quality: 90 }).toBuffer({ resolveWithObject: true })
    : await pipeline.png().toBuffer({ resolveWithObject: true });
  return { type: "image", image: data, mediaType: jpeg ? "image/jpeg" : "image/png", width: info.width, height: info.height };
}
