/**
 * Reads a PNG's or JPEG's dimensions from its header, without decoding a pixel.
 *
 * Why: a batch stores one overlay per item, and decoding it (sharp) to learn its size and make a
 * thumbnail costs more CPU than the rest of storing it. The header read is the cheap first check
 * on kernel-written bytes (signature, a well-formed header, a sane size); the full decode that
 * proves the picture is whole happens before anyone is served it (lib/engines/files/lazy-thumbnail.ts).
 */

export interface ImageHeader {
  format: "png" | "jpeg";
  width: number;
  height: number;
}

/**
 * The largest picture a function may save and have kept: the default upload limit
 * (ARGUS_MAX_IMAGE_MEGAPIXELS), since an overlay is drawn on an input. Its first decode costs
 * server CPU outside the kernel's limits (a 16k × 16k PNG is a few hundred KB and ~0.25 s to
 * decode), so larger headers are refused before anything is stored, and the decode holds the
 * same limit (lazy-thumbnail.ts).
 */
export const MAX_HEADER_PIXELS = 100_000_000;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Bit depths each PNG colour type allows (PNG spec, IHDR). */
const PNG_DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

function sane(format: ImageHeader["format"], width: number, height: number): ImageHeader | null {
  if (width < 1 || height < 1 || width * height > MAX_HEADER_PIXELS) return null;
  return { format, width, height };
}

function pngHeader(bytes: Uint8Array): ImageHeader | null {
  if (bytes.length < 33 || !PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The first chunk must be IHDR, 13 bytes long.
  if (view.getUint32(8) !== 13 || String.fromCharCode(...bytes.subarray(12, 16)) !== "IHDR") return null;
  const depth = bytes[24]!;
  const colour = bytes[25]!;
  if (!PNG_DEPTHS[colour]?.includes(depth) || bytes[26] !== 0 || bytes[27] !== 0 || bytes[28]! > 1) return null;
  return sane("png", view.getUint32(16), view.getUint32(20));
}

/** Start-of-frame markers (baseline, progressive, lossless…); C4, C8 and CC share the range but are not frames. */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function jpegHeader(bytes: Uint8Array): ImageHeader | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8 || bytes[2] !== 0xff) return null;
  let at = 2;
  // Walk the segments before the first frame header; each is FF <marker> <16-bit length>.
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0xd9 || marker === 0xda) return null; // a second start, the end or scan data before any frame
    const length = (bytes[at + 2]! << 8) | bytes[at + 3]!;
    if (length < 2) return null;
    if (isStartOfFrame(marker)) {
      if (at + 9 > bytes.length || length < 8) return null;
      const height = (bytes[at + 5]! << 8) | bytes[at + 6]!;
      const width = (bytes[at + 7]! << 8) | bytes[at + 8]!;
      return sane("jpeg", width, height);
    }
    at += 2 + length;
  }
  return null;
}

/** The picture's format and size from its header, or null when the bytes do not start like a PNG or JPEG. */
export function readImageHeader(bytes: Uint8Array): ImageHeader | null {
  return pngHeader(bytes) ?? jpegHeader(bytes);
}
