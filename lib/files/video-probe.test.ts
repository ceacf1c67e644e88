import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileTypeFromBuffer } from "file-type";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ArgusError } from "@/lib/errors";
import { probeVideo } from "@/lib/files/video-probe";

const PYTHON = "/usr/bin/python3";
const OPTIONS = { python: PYTHON, maxDurationSec: 120, timeoutMs: 30_000 };

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "argus-video-test-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Writes a real video with OpenCV: a moving bar on noise, so every frame differs. */
function writeVideo(name: string, opts: { fourcc: string; fps: number; frames: number; width: number; height: number }) {
  const file = path.join(dir, name);
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
  const args = [file, opts.fourcc, opts.fps, opts.frames, opts.width, opts.height].map(String);
  const run = spawnSync(PYTHON, ["-c", script, ...args], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`OpenCV could not write ${opts.fourcc}: ${run.stderr}`);
  return file;
}

function writeBytes(name: string, bytes: Uint8Array): string {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

async function refusal(promise: Promise<unknown>): Promise<ArgusError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (error instanceof ArgusError) return error;
  throw new Error(`expected an ArgusError, got ${String(error)}`);
}

describe("probeVideo: good videos", () => {
  it("measures an MP4 written by OpenCV (mp4v) and sniffs it as video/mp4", async () => {
    const file = writeVideo("ok.mp4", { fourcc: "mp4v", fps: 10, frames: 20, width: 160, height: 120 });
    expect(await fileTypeFromBuffer(readFileSync(file))).toEqual({ ext: "mp4", mime: "video/mp4" });
    const probe = await probeVideo(file, OPTIONS);
    expect(probe).toMatchObject({ width: 160, height: 120, fps: 10, frames: 20, durationSec: 2, thumbnailMime: "image/webp" });
    const thumb = await sharp(probe.thumbnail).metadata();
    expect([thumb.format, thumb.width, thumb.height]).toEqual(["webp", 160, 120]);
  });

  it("measures a WebM written by OpenCV (VP80) and sniffs it as video/webm", async () => {
    const file = writeVideo("ok.webm", { fourcc: "VP80", fps: 10, frames: 20, width: 160, height: 120 });
    expect(await fileTypeFromBuffer(readFileSync(file))).toEqual({ ext: "webm", mime: "video/webm" });
    const probe = await probeVideo(file, OPTIONS);
    expect(probe).toMatchObject({ width: 160, height: 120, fps: 10, frames: 20, durationSec: 2 });
  });

  it("shrinks the first frame to a 256-pixel thumbnail", async () => {
    const file = writeVideo("big.mp4", { fourcc: "mp4v", fps: 5, frames: 5, width: 640, height: 480 });
    const probe = await probeVideo(file, OPTIONS);
    expect(probe).toMatchObject({ width: 640, height: 480 });
    const thumb = await sharp(probe.thumbnail).metadata();
    expect([thumb.width, thumb.height]).toEqual([256, 192]);
  });

  it("leaves nothing behind in its temp dir", async () => {
    const file = writeVideo("clean.mp4", { fourcc: "mp4v", fps: 10, frames: 5, width: 64, height: 48 });
    const tmpDir = mkdtempSync(path.join(dir, "tmp-"));
    await probeVideo(file, { ...OPTIONS, tmpDir });
    expect(readdirSync(tmpDir)).toEqual([]);
  });
});

describe("probeVideo: refusals", () => {
  it("refuses a video longer than the limit with both lengths in seconds", async () => {
    // 310 tiny frames at 1 fps: a 310-second video that takes a moment to write.
    const file = writeVideo("long.mp4", { fourcc: "mp4v", fps: 1, frames: 310, width: 32, height: 32 });
    const error = await refusal(probeVideo(file, OPTIONS));
    expect(error.code).toBe("payload_too_large:upload");
    expect(error.status).toBe(413);
    expect(error.message).toBe("The video is 310 s long; the limit is 120 s.");
  });

  it("refuses a WebM cut in half: header intact, frames missing", async () => {
    const full = readFileSync(writeVideo("whole.webm", { fourcc: "VP80", fps: 10, frames: 60, width: 160, height: 120 }));
    const file = writeBytes("half.webm", full.subarray(0, Math.floor(full.length / 2)));
    expect((await fileTypeFromBuffer(readFileSync(file)))?.mime).toBe("video/webm");
    const error = await refusal(probeVideo(file, OPTIONS));
    expect(error.code).toBe("bad_request:upload");
    expect(error.status).toBe(400);
    expect(error.message).toContain("truncated");
    expect(error.message).toContain("6.0 s");
  });

  it("refuses an MP4 cut in half (its index is lost)", async () => {
    const full = readFileSync(writeVideo("whole.mp4", { fourcc: "mp4v", fps: 10, frames: 60, width: 160, height: 120 }));
    const file = writeBytes("half.mp4", full.subarray(0, Math.floor(full.length / 2)));
    const error = await refusal(probeVideo(file, OPTIONS));
    expect(error.code).toBe("bad_request:upload");
    expect(error.message).toContain("could not be opened");
  });

  it("refuses garbage bytes", async () => {
    const garbage = new Uint8Array(4096).map((_, i) => (i * 131 + 7) & 0xff);
    const error = await refusal(probeVideo(writeBytes("garbage.mp4", garbage), OPTIONS));
    expect(error.code).toBe("bad_request:upload");
    expect(error.message).toContain("damaged");
  });

  it("refuses frames over the pixel limit before decoding them", async () => {
    const file = writeVideo("wide.mp4", { fourcc: "mp4v", fps: 10, frames: 3, width: 320, height: 240 });
    const error = await refusal(probeVideo(file, { ...OPTIONS, maxPixels: 50_000 }));
    expect(error.code).toBe("bad_request:upload");
    expect(error.message).toContain("320×240");
  });

  it("kills a probe that runs past its deadline and says so", async () => {
    // A stand-in probe that would run for a minute: the deadline, not the script, must end it.
    const stuck = writeBytes("stuck.py", new TextEncoder().encode("import time\ntime.sleep(60)\n"));
    const file = writeVideo("any.mp4", { fourcc: "mp4v", fps: 10, frames: 3, width: 32, height: 32 });
    const started = performance.now();
    const error = await refusal(probeVideo(file, { ...OPTIONS, scriptPath: stuck, timeoutMs: 500 }));
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(error.code).toBe("bad_request:upload");
    expect(error.message).toBe("Reading the video took longer than 0.5 s, so it was stopped; the file may be damaged.");
  });

  it("reports a missing Python as the server's problem (503), not the file's", async () => {
    const file = writeVideo("fine.mp4", { fourcc: "mp4v", fps: 10, frames: 3, width: 32, height: 32 });
    const error = await refusal(probeVideo(file, { ...OPTIONS, python: "/nonexistent/python3" }));
    expect(error.code).toBe("unavailable:upload");
    expect(error.status).toBe(503);
    expect(error.message).toContain("/nonexistent/python3");
  });
});
