/**
 * The whole check an upload goes through before it is stored: size, name,
 * real format, then dimensions and thumbnail. Pure pipeline — no database, no
 * HTTP — so the route decides where things go and this decides what is
 * acceptable. Every refusal is an ArgusError with a message for the person.
 *
 * The cheap checks run first so a 2 GB upload or a bad name is refused
 * before anything is decoded.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { ArgusError } from "@/lib/foundation/errors";
import { cleanUploadName } from "@/lib/engines/files/filename";
import { probeImage } from "@/lib/engines/files/image-probe";
import { sniffMedia, type MediaKind } from "@/lib/engines/files/sniff";
import { probeVideo } from "@/lib/engines/files/video-probe";

interface UploadLimits {
  maxBytes: number;
  /** Per image, or per video frame. */
  maxPixels: number;
  maxVideoSeconds: number;
}

export interface UploadInput {
  bytes: Uint8Array;
  filename: string;
  limits: UploadLimits;
  /** Python with cv2, for videos. */
  python: string;
  /** Videos are written here briefly so OpenCV can read them. */
  tmpDir: string;
  /** Kill the video probe after this long; video-probe's default otherwise. */
  videoTimeoutMs?: number;
}

export interface ProcessedUpload {
  /** The person's own file name, cleaned; collisions are the caller's to resolve (uniqueName). */
  name: string;
  kind: MediaKind;
  /** From the bytes, never from the name or the client. */
  mime: string;
  ext: string;
  size: number;
  width: number;
  height: number;
  /** Null for images. */
  durationSec: number | null;
  thumbnail: Buffer;
  thumbnailMime: "image/webp";
}

const UNITS = ["bytes", "KB", "MB", "GB"] as const;

/** "61.2 MB", "50 MB", "512 bytes" (1 KB = 1024 bytes, as upload limits are usually set). */
export function formatBytes(bytes: number, round: (n: number) => number = Math.round): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = unit === 0 ? round(value) : round(value * 10) / 10;
  return `${shown} ${UNITS[unit]}`;
}

function checkSize(size: number, maxBytes: number): void {
  if (size > maxBytes) {
    const shown = formatBytes(size);
    const limit = formatBytes(maxBytes, Math.floor);
    // Rounding can make a file a few bytes over read the same as the limit.
    const amount = shown === limit ? `just over ${limit}` : shown;
    throw new ArgusError("payload_too_large:upload", `The file is ${amount}; the limit is ${limit}.`, {
      field: "file",
    });
  }
  if (size === 0) {
    throw new ArgusError("bad_request:upload", "The file is empty (0 bytes).", { field: "file" });
  }
}

async function probeVideoBytes(input: UploadInput, ext: string) {
  const dir = await mkdtemp(path.join(input.tmpDir, "upload-"));
  try {
    // Our own name with the sniffed extension: the person's name never
    // touches the filesystem, and FFmpeg picks its demuxer from real content.
    const file = path.join(dir, `video.${ext}`);
    await writeFile(file, input.bytes);
    return await probeVideo(file, {
      python: input.python,
      maxDurationSec: input.limits.maxVideoSeconds,
      maxPixels: input.limits.maxPixels,
      tmpDir: dir,
      ...(input.videoTimeoutMs === undefined ? {} : { timeoutMs: input.videoTimeoutMs }),
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function processUpload(input: UploadInput): Promise<ProcessedUpload> {
  const size = input.bytes.byteLength;
  checkSize(size, input.limits.maxBytes);
  const name = cleanUploadName(input.filename);
  const { kind, mime, ext } = await sniffMedia(input.bytes);

  if (kind === "image") {
    const image = await probeImage(input.bytes, { maxPixels: input.limits.maxPixels });
    return { name, kind, mime, ext, size, ...image, durationSec: null };
  }

  const video = await probeVideoBytes(input, ext);
  return {
    name,
    kind,
    mime,
    ext,
    size,
    width: video.width,
    height: video.height,
    durationSec: video.durationSec,
    thumbnail: video.thumbnail,
    thumbnailMime: video.thumbnailMime,
  };
}
