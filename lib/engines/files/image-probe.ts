/**
 * Measures an uploaded image and makes its thumbnail. The order matters:
 * the header is read first and the pixel budget enforced before a single
 * pixel is decoded, because a 70-byte PNG can claim to be 30000×30000 and a
 * decoder that trusts it would allocate gigabytes (a decompression bomb).
 */
import sharp, { type Metadata } from "sharp";
import { ArgusError } from "@/lib/foundation/errors";

export const THUMBNAIL_EDGE = 256;

export interface ImageProbe {
  /** Displayed size: EXIF orientation applied, first frame of an animation. */
  width: number;
  height: number;
  thumbnail: Buffer;
  thumbnailMime: "image/webp";
}

export interface ImageProbeOptions {
  /** Largest width × height accepted, counted on the first frame. */
  maxPixels: number;
}

// Formats sniff.ts lets through. Anything else sharp can read (SVG, TIFF, PDF
// via poppler…) is refused here too, so this function is safe on its own.
const PROBED_FORMATS = new Set<string>(["png", "jpeg", "webp", "gif", "heif"]);

// The prebuilt sharp binaries read AVIF but not HEVC-coded HEIC; a libvips
// built with an HEVC decoder lists ".heic" among the HEIF suffixes.
const heicReadable = sharp.format.heif?.input.fileSuffix?.includes(".heic") === true;

// "error" fails on truncated data (JPEG without its end, PNG cut mid-IDAT,
// GIF cut mid-frame) and on decode errors, but tolerates the harmless warnings
// many camera JPEGs trigger, which sharp's default "warning" would refuse.
const FAIL_ON = "error" as const;

const HEIC_UNREADABLE = "HEIC images can't be decoded on this server; convert it to JPEG or PNG first.";

function bad(message: string, cause?: unknown): ArgusError {
  return new ArgusError("bad_request:upload", message, { field: "file", cause });
}

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  return signature.every((byte, i) => bytes[offset + i] === byte);
}

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

/** Names the format from its magic bytes, for messages when sharp cannot even read the header. */
function formatName(bytes: Uint8Array, meta?: Metadata): string {
  if (meta?.format === "heif") return meta.compression === "av1" ? "AVIF" : "HEIC";
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47])) return "PNG";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "JPEG";
  if (startsWith(bytes, ascii("GIF8"))) return "GIF";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "WebP";
  if (startsWith(bytes, ascii("ftyp"), 4)) return startsWith(bytes, ascii("avif"), 8) ? "AVIF" : "HEIC";
  return "image";
}

/**
 * True when the container says there should be more bytes than there are.
 * libpng reports truncation and corruption with the same message, so for PNG
 * and WebP we walk the structure ourselves to tell the person which it is.
 */
function looksTruncated(bytes: Uint8Array, decoderMessage: string): boolean {
  if (/premature end|unexpected end|end of file|truncated/i.test(decoderMessage)) return true;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47])) {
    // Chunks are length(4) type(4) data(length) crc(4); a PNG ends with IEND.
    let at = 8;
    while (at + 8 <= bytes.length) {
      const length = view.getUint32(at);
      const isEnd = startsWith(bytes, ascii("IEND"), at + 4);
      at += 12 + length;
      if (isEnd) return at > bytes.length;
    }
    return true;
  }
  if (startsWith(bytes, ascii("RIFF")) && bytes.length >= 8) {
    return view.getUint32(4, true) + 8 > bytes.length;
  }
  return false;
}

function decodeFailure(bytes: Uint8Array, error: unknown, meta?: Metadata): ArgusError {
  const raw = error instanceof Error ? error.message : String(error);
  const name = formatName(bytes, meta);
  const article = /^[AEIOU]/.test(name) ? "an" : "a";
  if (looksTruncated(bytes, raw)) {
    return bad(`The file is a truncated ${name}: it ends before the image data does. Upload the complete file.`, error);
  }
  return bad(`The file is ${article} damaged ${name}: its image data could not be decoded.`, error);
}

/** "900", "12.3", "0.01": one decimal, or two significant digits below one megapixel. */
function megapixels(pixels: number): string {
  const value = pixels / 1_000_000;
  return String(value >= 1 ? Math.round(value * 10) / 10 : Number(value.toPrecision(2)));
}

function tooManyPixels(width: number, height: number, maxPixels: number): ArgusError {
  const shown = megapixels(width * height);
  const limit = megapixels(maxPixels);
  // Rounding can make an image a few pixels over read the same as the limit.
  const amount = shown === limit ? `just over ${limit}` : shown;
  return new ArgusError(
    "payload_too_large:upload",
    `The image is ${width}×${height} (${amount} megapixels); the limit is ${limit} megapixels.`,
    { field: "file" },
  );
}

/** Reads only the header: dimensions, orientation, frame height, codec. */
async function readHeader(bytes: Uint8Array): Promise<Metadata> {
  try {
    // No pixel limit here on purpose: metadata() never decodes pixels, and we
    // want the real dimensions so the refusal can state them.
    return await sharp(bytes, { limitInputPixels: false, failOn: FAIL_ON }).metadata();
  } catch (error) {
    throw decodeFailure(bytes, error);
  }
}

export async function probeImage(bytes: Uint8Array, options: ImageProbeOptions): Promise<ImageProbe> {
  const maxPixels = Math.floor(options.maxPixels);
  // sharp treats a limit of 0 as "no limit"; never let a misconfiguration do that.
  if (!(maxPixels > 0)) throw new RangeError(`maxPixels must be a positive number, got ${options.maxPixels}`);

  const meta = await readHeader(bytes);

  if (!PROBED_FORMATS.has(meta.format)) {
    throw new ArgusError(
      "unsupported_media:upload",
      `The file is a ${meta.format.toUpperCase()} image, which isn't accepted; upload PNG, JPEG, WebP, GIF or HEIC.`,
      { field: "file" },
    );
  }

  if (meta.format === "heif" && meta.compression !== "av1" && !heicReadable) {
    throw new ArgusError("unsupported_media:upload", HEIC_UNREADABLE, { field: "file" });
  }

  // Without `animated`, sharp reports the first frame; pageHeight guards the
  // case where a caller's defaults ever change that.
  const frameWidth = meta.width;
  const frameHeight = meta.pageHeight ?? meta.height;
  if (frameWidth * frameHeight > maxPixels) throw tooManyPixels(frameWidth, frameHeight, maxPixels);

  // Orientations 5–8 are rotated by 90°, so the displayed size swaps.
  const turned = (meta.orientation ?? 1) >= 5;
  const width = turned ? frameHeight : frameWidth;
  const height = turned ? frameWidth : frameHeight;

  let thumbnail: Buffer;
  try {
    // Making the thumbnail decodes every pixel of the first frame, which is
    // what surfaces truncation and corruption. limitInputPixels repeats the
    // budget inside sharp, so this call stays safe even if the check above
    // is ever moved or loosened.
    thumbnail = await sharp(bytes, { failOn: FAIL_ON, limitInputPixels: maxPixels })
      .rotate()
      .resize({ width: THUMBNAIL_EDGE, height: THUMBNAIL_EDGE, fit: "inside", withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer();
  } catch (error) {
    // Backstop for libvips builds that list .heic but lack a working decoder.
    if (meta.format === "heif" && /codec|decoder|unsupported/i.test(String(error))) {
      throw new ArgusError("unsupported_media:upload", HEIC_UNREADABLE, { field: "file", cause: error });
    }
    throw decodeFailure(bytes, error, meta);
  }

  return { width, height, thumbnail, thumbnailMime: "image/webp" };
}
