import { z } from "zod";

/**
 * Big pictures arrive from the kernel as references to files it wrote in its
 * workspace (python/argus/picture_refs.py) instead of one 20 MB base64 frame
 * through jupyter-server. This module is the pure half: what a reference may
 * say. Everything in it is the kernel's word, and the kernel is the attacker,
 * so a reference may only name a file in the one folder Argus uses, by a name
 * of the shape Argus makes; the file itself is then opened without following
 * links and checked against the claimed size and hash (picture-ref-files.ts).
 */

export const FILE_REF_MIME = "application/vnd.argus.file-ref+json";
/** The workspace folder the kernel writes pictures to; nothing else may be referenced. */
export const PICTURE_DIR = ".argus-pictures";
/** Largest picture file read back (a 40 MP PNG of noise is ~120 MB; a photo is a few MB). */
export const MAX_PICTURE_FILE_BYTES = 64 * 1024 * 1024;

export type PictureMime = "image/png" | "image/jpeg";

export interface PictureRef {
  mime: PictureMime;
  /** Relative to the workspace: `.argus-pictures/<32 hex>.png|.jpg`. */
  path: string;
  size: number;
  sha256: string;
}

const NAME = /^[0-9a-f]{32}\.(png|jpg)$/;

const refSchema = z.object({
  mime: z.enum(["image/png", "image/jpeg"]),
  path: z.string().max(200),
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
const bundleSchema = z.object({ files: z.array(refSchema).min(1).max(4) });

/** A reference that can't be used, worded for the person and the planner. */
export class PictureRefError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PictureRefError";
  }
}

/** Pure: the references in a bundle value (JSON text), or a refusal. */
export function parsePictureRefs(value: string): PictureRef[] {
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    throw new PictureRefError("the picture's file reference is not valid JSON");
  }
  const parsed = bundleSchema.safeParse(json);
  if (!parsed.success) throw new PictureRefError("the picture's file reference is malformed");
  for (const ref of parsed.data.files) {
    const [dir, name, ...rest] = ref.path.split("/");
    if (dir !== PICTURE_DIR || !name || rest.length || !NAME.test(name)) {
      throw new PictureRefError(`the picture's file reference names ${JSON.stringify(ref.path.slice(0, 80))}, which is not a picture file Argus wrote`);
    }
    if ((ref.mime === "image/png") !== name.endsWith(".png")) throw new PictureRefError("the picture's file reference has a type that does not match its name");
  }
  return parsed.data.files;
}

const MAGIC: Record<PictureMime, Buffer> = {
  "image/png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  "image/jpeg": Buffer.from([0xff, 0xd8, 0xff]),
};

/** Pure: refuses bytes that are not what the reference claimed (size, hash, format). */
export function checkPictureBytes(ref: PictureRef, bytes: Buffer, sha256: string): void {
  if (bytes.length !== ref.size) throw new PictureRefError(`the picture file changed after it was written (${bytes.length} bytes, ${ref.size} expected)`);
  if (sha256 !== ref.sha256) throw new PictureRefError("the picture file changed after it was written (its content does not match)");
  if (!bytes.subarray(0, MAGIC[ref.mime].length).equals(MAGIC[ref.mime])) throw new PictureRefError(`the picture file is not a ${ref.mime === "image/png" ? "PNG" : "JPEG"}`);
}
