import type { BlobStore } from "@/lib/engines/db/blobs";
import type { Db } from "@/lib/engines/db/database";
import { getFile } from "@/lib/engines/db/files";
import { imagePart } from "@/lib/engines/llm/images";

/** Loads a stored image for a model, downscaled so its longer edge is at most `maxEdge`. */
export function imagePreparer(deps: { db: Db; blobs: BlobStore }) {
  return async (ref: { fileId: string; label: string }, maxEdge: number) => {
    const file = await getFile(deps.db, ref.fileId);
    if (!file) throw new Error(`image ${ref.label} is gone`);
    const { type, image, mediaType } = await imagePart(await deps.blobs.read(file.sha256), { maxEdge });
    return { type, image, mediaType };
  };
}
