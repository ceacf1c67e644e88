import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { crc32, deflateSync } from "node:zlib";
import sharp from "sharp";
import { ArgusError } from "@/lib/foundation/errors";

/** Real media made at test time: never mocks, never checked-in binaries. */

export const TEST_PYTHON = "/usr/bin/python3";

/** Awaits a promise that must reject with an ArgusError, and returns the error. */
export async function refusal(promise: Promise<unknown>): Promise<ArgusError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (error instanceof ArgusError) return error;
  throw new Error(`expected an ArgusError, got ${String(error)}`);
}

/** Pseudo-random pixels, so encoders cannot shrink the file to a few bytes. */
export function noisyImage(width: number, height: number, pages = 1) {
  const raw = Buffer.alloc(width * height * pages * 3);
  for (let i = 0; i < raw.length; i += 1) raw[i] = (Math.imul(i, 2654435761) >>> 0) % 251;
  return sharp(raw, { raw: { width, height: height * pages, channels: 3, ...(pages > 1 ? { pageHeight: height } : {}) } });
}

export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid 74-byte PNG whose header claims 30000×30000 RGB: a decompression bomb's calling card. */
export function bombPng(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(30_000, 0);
  ihdr.writeUInt32BE(30_000, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", deflateSync(Buffer.alloc(1000))),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/**
 * Writes a real video with OpenCV (fourcc `mp4v` → MP4, `VP80` → WebM): a
 * moving bar on noise, so every frame differs. Returns the file's bytes.
 */
export function writeVideo(
  file: string,
  opts: { fourcc: string; fps: number; frames: number; width?: number; height?: number },
): Buffer {
  const script = [
    "import sys, cv2, numpy as np",
    "path, fourcc, fps, n, w, h = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])",
    "out = cv2.VideoWriter(path, cv2.VideoWriter_fourcc(*fourcc), fps, (w, h))",
    "sys.exit(3) if not out.isOpened() else None",
    "rng = np.random.default_rng(7)",
    "for i in range(n):",
    "    frame = rng.integers(0, 255, (h, w, 3), dtype=np.uint8)",
    "    frame[:, (i * 4) % w : (i * 4) % w + 4] = 255",
    "    out.write(frame)",
    "out.release()",
  ].join("\n");
  const args = [file, opts.fourcc, opts.fps, opts.frames, opts.width ?? 96, opts.height ?? 64].map(String);
  const run = spawnSync(TEST_PYTHON, ["-c", script, ...args], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`OpenCV could not write ${opts.fourcc}: ${run.stderr}`);
  return readFileSync(file);
}
