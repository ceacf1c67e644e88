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

/** A video for writeVideos: where, which codec (`mp4v` → MP4, `VP80` → WebM), how many frames at what rate. */
export interface VideoSpec {
  file: string;
  fourcc: string;
  fps: number;
  frames: number;
  width?: number;
  height?: number;
}

/**
 * Writes real videos with OpenCV: a moving bar on noise, so every frame differs. All of them in one
 * Python process, because importing OpenCV costs about half a CPU-second each time: a file that
 * needs several videos writes them together in its beforeAll. Returns each file's bytes, in order.
 */
export function writeVideos(specs: VideoSpec[]): Buffer[] {
  const script = [
    "import json, sys, cv2, numpy as np",
    "for spec in json.loads(sys.argv[1]):",
    "    w, h, n = spec['width'], spec['height'], spec['frames']",
    "    out = cv2.VideoWriter(spec['file'], cv2.VideoWriter_fourcc(*spec['fourcc']), float(spec['fps']), (w, h))",
    "    if not out.isOpened():",
    "        sys.exit('OpenCV could not write ' + spec['fourcc'])",
    "    rng = np.random.default_rng(7)",
    "    for i in range(n):",
    "        frame = rng.integers(0, 255, (h, w, 3), dtype=np.uint8)",
    "        frame[:, (i * 4) % w : (i * 4) % w + 4] = 255",
    "        out.write(frame)",
    "    out.release()",
  ].join("\n");
  const specsJson = JSON.stringify(specs.map((v) => ({ ...v, width: v.width ?? 96, height: v.height ?? 64 })));
  const run = spawnSync(TEST_PYTHON, ["-c", script, specsJson], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`OpenCV could not write the videos: ${run.stderr}`);
  return specs.map((v) => readFileSync(v.file));
}
