import sharp from "sharp";
import type { BlobStore } from "@/lib/db/blobs";
import type { Db } from "@/lib/db/database";
import { setFileThumbnail, type FileRow } from "@/lib/db/files";
import { ArgusError } from "@/lib/errors";

export const GENERATED_THUMBNAIL_EDGE = 256;

/** A picture's webp thumbnail; throws when the bytes do not decode whole (sharp's default: warnings fail too). */
export async function makeThumbnail(bytes: Buffer): Promise<Buffer> {
  return sharp(bytes).resize(GENERATED_THUMBNAIL_EDGE, GENERATED_THUMBNAIL_EDGE, { fit: "inside", withoutEnlargement: true }).webp().toBuffer();
}

/**
 * A generated picture stored without its thumbnail (a batch overlay: only its header was checked,
 * lib/files/generated.ts) has not been decoded yet. Before anyone is served it, or its thumbnail,
 * it is decoded whole here — which also makes the thumbnail, stored on the row — so bytes a
 * kernel wrote as `.png` are never served as a picture unless they are one.
 *
 * Returns the row with its thumbnail; a file that needs nothing is returned as it is. Two first
 * requests at once both decode and store the same (content-addressed) thumbnail: harmless.
 */
export async function verifiedFile(deps: { db: Db; blobs: BlobStore }, file: FileRow): Promise<FileRow> {
  if (!needsVerification(file)) return file;
  const bytes = await deps.blobs.read(file.sha256);
  let thumb: Buffer;
  try {
    thumb = await makeThumbnail(bytes);
  } catch {
    throw new ArgusError("unprocessable:file", "This picture the function saved is damaged or not a picture, so it cannot be shown.");
  }
  const stored = await deps.blobs.put(thumb);
  await setFileThumbnail(deps.db, file.id, { sha256: stored.sha256, mime: "image/webp" });
  return { ...file, thumbSha256: stored.sha256, thumbMime: "image/webp" };
}

/** Generated pictures get their thumbnail (and their full decode) at the first request when stored without one. */
export function needsVerification(file: FileRow): boolean {
  return file.origin === "generated" && file.kind === "image" && file.thumbSha256 === null;
}
