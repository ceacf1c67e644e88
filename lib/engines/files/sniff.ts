/**
 * Decides what an upload really is from its bytes. The extension and the
 * client's Content-Type are never consulted: both are whatever the sender
 * typed, and the probes downstream must only ever see formats they expect.
 */
import { fileTypeFromBuffer } from "file-type";
import sharp from "sharp";
import { ArgusError } from "@/lib/foundation/errors";

export type MediaKind = "image" | "video";

export interface SniffedMedia {
  kind: MediaKind;
  mime: string;
  ext: string;
}

// sharp's prebuilt libheif always reads AVIF (AV1); HEIC (HEVC) depends on how
// libvips was built, so HEIC is let through here and image-probe decides.
const avifReadable =
  sharp.format.heif?.input.buffer === true && sharp.format.heif.input.fileSuffix?.includes(".avif") === true;

const ACCEPTED: ReadonlyMap<string, MediaKind> = new Map<string, MediaKind>([
  ["image/png", "image"],
  // An animated PNG is still a PNG; sharp reads its first frame.
  ["image/apng", "image"],
  ["image/jpeg", "image"],
  ["image/webp", "image"],
  ["image/gif", "image"],
  ["image/heic", "image"],
  ["image/heif", "image"],
  ...(avifReadable ? ([["image/avif", "image"]] as const) : []),
  ["video/mp4", "video"],
  ["video/webm", "video"],
]);

// Names people recognise for the formats we refuse most often.
const KNOWN_NAMES: Readonly<Record<string, string>> = {
  "application/pdf": "a PDF document",
  "application/zip": "a ZIP archive",
  "application/gzip": "a gzip archive",
  "application/x-7z-compressed": "a 7-Zip archive",
  "application/x-rar-compressed": "a RAR archive",
  "application/x-tar": "a tar archive",
  "application/x-msdownload": "a Windows program",
  "application/x-elf": "a Linux program",
  "application/x-sqlite3": "an SQLite database",
  "application/msword": "a Word document",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "a Word document",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "an Excel spreadsheet",
  "application/xml": "an XML document",
  "image/tiff": "a TIFF image",
  "image/bmp": "a BMP image",
  "image/x-icon": "an icon file",
  "image/vnd.adobe.photoshop": "a Photoshop document",
  "image/avif": "an AVIF image",
  "image/heic-sequence": "a HEIC image sequence",
  "image/heif-sequence": "a HEIF image sequence",
  "video/quicktime": "a QuickTime (MOV) video",
  "video/x-m4v": "an M4V video",
  "video/matroska": "a Matroska (MKV) video",
  "video/x-msvideo": "an AVI video",
  "video/3gpp": "a 3GP video",
  "video/mpeg": "an MPEG video",
  "audio/mpeg": "an MP3 audio file",
  "audio/wav": "a WAV audio file",
  "audio/ogg": "an Ogg audio file",
};

function describe(mime: string, ext: string): string {
  return KNOWN_NAMES[mime] ?? `a .${ext} file (${mime})`;
}

const SUPPORTED_LIST = `PNG, JPEG, WebP, GIF${avifReadable ? ", AVIF" : ""} or HEIC images, or MP4 or WebM videos`;

export async function sniffMedia(bytes: Uint8Array): Promise<SniffedMedia> {
  const found = await fileTypeFromBuffer(bytes);

  if (found === undefined) {
    throw new ArgusError(
      "unsupported_media:upload",
      `The file's bytes are not a known image or video format; upload ${SUPPORTED_LIST}.`,
      { field: "file" },
    );
  }

  const kind = ACCEPTED.get(found.mime);
  if (kind !== undefined) return { kind, mime: found.mime, ext: found.ext };

  const what = describe(found.mime, found.ext);
  const isMedia = found.mime.startsWith("image/") || found.mime.startsWith("video/");
  // "looks like a TIFF image, not an image" would read as nonsense.
  const message = isMedia
    ? `The file looks like ${what}, which isn't supported; upload ${SUPPORTED_LIST}.`
    : `The file looks like ${what}, not an image or a video.`;
  throw new ArgusError("unsupported_media:upload", message, { field: "file" });
}
