import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { insertFile } from "@/lib/engines/db/files";
import type { Execution } from "@/lib/foundation/protocol/contexts";
import type { SessionDeps } from "@/lib/features/sessions/service";
import { fileUrl } from "@/lib/foundation/protocol/files";
import { readImageHeader } from "./image-header";
import { makeThumbnail } from "./lazy-thumbnail";

export interface StoredImage {
  fileId: string;
  url: string;
  label: string;
  width: number;
  height: number;
  viewed: boolean;
}

/**
 * Stores the pictures a cell produced as the session's generated files, so the
 * chat shows them by URL (never base64 over the socket) and the planner can be
 * shown them again by id.
 */
export async function storeExecutionImages(
  deps: Pick<SessionDeps, "db" | "blobs">,
  sessionId: string,
  execution: Execution,
  labelPrefix: string,
): Promise<StoredImage[]> {
  const stored: StoredImage[] = [];
  let n = 0;
  for (const result of execution.results) {
    const b64 = result.data["image/png"] ?? result.data["image/jpeg"];
    if (!b64) continue;
    n++;
    const mime = result.data["image/png"] ? "image/png" : "image/jpeg";
    const title = /<argus image: [^>]*?\s([^>]+)>/.exec(result.data["text/plain"] ?? "")?.[1];
    const label = `${labelPrefix}: ${result.viewed ? "view_image" : "display"} ${n}${title ? ` "${title}"` : ""}`;
    const name = `${labelPrefix.replace(/\W+/g, "-")}-${n}.${mime === "image/png" ? "png" : "jpg"}`;
    const image = await storeGeneratedImage(deps, sessionId, Buffer.from(b64, "base64"), { name, mime, label });
    if (image) stored.push({ ...image, viewed: result.viewed });
  }
  return stored;
}

/**
 * Stores one picture Argus made for a session (a cell's output, a browser screenshot, a batch
 * overlay) as a generated file. Null when the bytes are not a picture.
 *
 * `thumbnail: "now"` (the default) decodes the picture whole and stores its thumbnail with it.
 * `"lazy"` (batch overlays, one per item, where that decode was the largest CPU cost of storing
 * them) checks only the signature and header (format, a sane size) and leaves the row without a
 * thumbnail: the first request decodes it whole and makes the thumbnail (lazy-thumbnail.ts), and
 * bytes that do not decode are never served.
 */
export async function storeGeneratedImage(
  deps: Pick<SessionDeps, "db" | "blobs">,
  sessionId: string,
  bytes: Buffer,
  meta: { name: string; mime: "image/png" | "image/jpeg"; label: string },
  options: { thumbnail?: "now" | "lazy" } = {},
): Promise<Omit<StoredImage, "viewed"> | null> {
  let width = 0;
  let height = 0;
  let mime: string = meta.mime;
  let thumbSha256: string | null = null;
  if (options.thumbnail === "lazy") {
    const header = readImageHeader(bytes);
    if (!header) return null; // not a PNG or JPEG: nothing to show
    ({ width, height } = header);
    mime = header.format === "png" ? "image/png" : "image/jpeg"; // what the bytes are, whatever the name says
  } else {
    let thumb: Buffer;
    try {
      const info = await sharp(bytes).metadata();
      width = info.width ?? 0;
      height = info.height ?? 0;
      thumb = await makeThumbnail(bytes);
    } catch {
      return null; // not a decodable picture: nothing to show
    }
    thumbSha256 = (await deps.blobs.put(thumb)).sha256;
  }
  const original = await deps.blobs.put(bytes);
  const fileId = randomUUID();
  await insertFile(deps.db, {
    id: fileId,
    sessionId,
    origin: "generated",
    name: meta.name,
    kind: "image",
    mime,
    size: bytes.length,
    sha256: original.sha256,
    width,
    height,
    durationSec: null,
    thumbSha256,
    thumbMime: thumbSha256 ? "image/webp" : null,
    createdAt: new Date().toISOString(),
  });
  return { fileId, url: fileUrl(fileId), label: meta.label, width, height };
}
