import sharp from "sharp";
import type { BlobStore } from "@/lib/engines/db/blobs";
import type { Db } from "@/lib/engines/db/database";
import { setFileThumbnail, type FileRow } from "@/lib/engines/db/files";
import { ArgusError } from "@/lib/foundation/errors";
import { MAX_HEADER_PIXELS } from "./image-header";

export const GENERATED_THUMBNAIL_EDGE = 256;

/** A picture's webp thumbnail; throws when the bytes do not decode whole (sharp's default: warnings fail too) or are over the pixel limit. */
export async function makeThumbnail(bytes: Buffer): Promise<Buffer> {
  return sharp(bytes, { limitInputPixels: MAX_HEADER_PIXELS }).resize(GENERATED_THUMBNAIL_EDGE, GENERATED_THUMBNAIL_EDGE, { fit: "inside", withoutEnlargement: true }).webp().toBuffer();
}

/**
 * A generated picture stored without its thumbnail (a batch overlay: only its header was checked,
 * lib/engines/files/generated.ts) has not been decoded yet. Before anyone is served it, or its thumbnail,
 * it is decoded whole here — which also makes the thumbnail, stored on the row — so bytes a
 * kernel wrote as `.png` are never served as a picture unless they are one.
 *
 * Returns the row with its thumbnail; a file that needs nothing is returned as it is. Requests at
 * once for the same file share one decode, and a file that failed is refused again without one:
 * a page of a thousand hostile overlays costs one decode each, not one per request.
 */
export async function verifiedFile(deps: { db: Db; blobs: BlobStore }, file: FileRow): Promise<FileRow> {
  if (!needsVerification(file)) return file;
  // A file that failed once fails again without another decode; requests at once share one.
  if (undecodable.has(file.id)) throw damaged();
  const running = verifying.get(file.id);
  if (running) return running;
  const check = verify(deps, file).finally(() => verifying.delete(file.id));
  verifying.set(file.id, check);
  return check;
}

/** Files that did not decode, by id (this process; a restart forgets them and decodes once more). */
const undecodable = new Set<string>();
const MAX_REMEMBERED = 10_000;
const verifying = new Map<string, Promise<FileRow>>();

const damaged = () => new ArgusError("unprocessable:file", "This picture the function saved is damaged or not a picture, so it cannot be shown.");

async function verify(deps: { db: Db; blobs: BlobStore }, file: FileRow): Promise<FileRow> {
  const bytes = await deps.blobs.read(file.sha256);
  let thumb: Buffer;
  try {
    thumb = await makeThumbnail(bytes);
  } catch {
    if (undecodable.size >= MAX_REMEMBERED) undecodable.clear();
    undecodable.add(file.id);
    throw damaged();
  }
  const stored = await deps.blobs.put(thumb);
  await setFileThumbnail(deps.db, file.id, { sha256: stored.sha256, mime: "image/webp" });
  return { ...file, thumbSha256: stored.sha256, thumbMime: "image/webp" };
}

/** Generated pictures get their thumbnail (and their full decode) at the first request when stored without one. */
export function needsVerification(file: FileRow): boolean {
  return file.origin === "generated" && file.kind === "image" && file.thumbSha256 === null;
}
