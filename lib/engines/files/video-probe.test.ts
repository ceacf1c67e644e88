import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileTypeFromBuffer } from "file-type";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeVideo } from "@/lib/engines/files/video-probe";
import { refusal, TEST_PYTHON, type VideoSpec, writeVideos } from "@/tests/helpers/media";

const OPTIONS = { python: TEST_PYTHON, maxDurationSec: 120, timeoutMs: 30_000 };

/** Every video the tests below read, by name; written together in beforeAll (one OpenCV import). */
const VIDEOS: Record<string, Omit<VideoSpec, "file">> = {
  "ok.mp4": { fourcc: "mp4v", fps: 10, frames: 20, width: 160, height: 120 },
  "ok.webm": { fourcc: "VP80", fps: 10, frames: 20, width: 160, height: 120 },
  "big.mp4": { fourcc: "mp4v", fps: 5, frames: 5, width: 640, height: 480 },
  "clean.mp4": { fourcc: "mp4v", fps: 10, frames: 5, width: 64, height: 48 },
  // 310 tiny frames at 1 fps: a 310-second video.
  "long.mp4": { fourcc: "mp4v", fps: 1, frames: 310, width: 32, height: 32 },
  "whole.webm": { fourcc: "VP80", fps: 10, frames: 60, width: 160, height: 120 },
  "whole.mp4": { fourcc: "mp4v", fps: 10, frames: 60, width: 160, height: 120 },
  "sibling.mp4": { fourcc: "mp4v", fps: 10, frames: 5, width: 64, height: 48 },
  "wide.mp4": { fourcc: "mp4v", fps: 10, frames: 3, width: 320, height: 240 },
  "tiny.mp4": { fourcc: "mp4v", fps: 10, frames: 3, width: 32, height: 32 },
};

let dir: string;
const bytesOf = new Map<string, Buffer>();
/** The path of one of VIDEOS. */
const video = (name: keyof typeof VIDEOS & string) => path.join(dir, name);

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "argus-video-test-"));
  const names = Object.keys(VIDEOS);
  const written = writeVideos(names.map((name) => ({ file: path.join(dir, name), ...VIDEOS[name]! })));
  names.forEach((name, i) => bytesOf.set(name, written[i]!));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function writeBytes(name: string, bytes: Uint8Array): string {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

describe("probeVideo: good videos", () => {
  it("measures an MP4 written by OpenCV (mp4v) and sniffs it as video/mp4", async () => {
    const file = video("ok.mp4");
    expect(await fileTypeFromBuffer(readFileSync(file))).toEqual({ ext: "mp4", mime: "video/mp4" });
    const probe = await probeVideo(file, OPTIONS);
    expect(probe).toMatchObject({ width: 160, height: 120, fps: 10, frames: 20, durationSec: 2, thumbnailMime: "image/webp" });
    const thumb = await sharp(probe.thumbnail).metadata();
    expect([thumb.format, thumb.width, thumb.height]).toEqual(["webp", 160, 120]);
  });

  it("measures a WebM written by OpenCV (VP80) and sniffs it as video/webm", async () => {
    const file = video("ok.webm");
    expect(await fileTypeFromBuffer(readFileSync(file))).toEqual({ ext: "webm", mime: "video/webm" });
    const probe = await probeVideo(file, OPTIONS);
    expect(probe).toMatchObject({ width: 160, height: 120, fps: 10, frames: 20, durationSec: 2 });
  });

  it("shrinks the first frame to a 256-pixel thumbnail", async () => {
    const file = video("big.mp4");
    const probe = await probeVideo(file, OPTIONS);
    expect(probe).toMatchObject({ width: 640, height: 480 });
    const thumb = await sharp(probe.thumbnail).metadata();
    expect([thumb.width, thumb.height]).toEqual([256, 192]);
  });

  it("leaves nothing behind in its temp dir", async () => {
    const file = video("clean.mp4");
    const tmpDir = mkdtempSync(path.join(dir, "tmp-"));
    await probeVideo(file, { ...OPTIONS, tmpDir });
    expect(readdirSync(tmpDir)).toEqual([]);
  });
});

describe("probeVideo: refusals", () => {
  it("refuses a video longer than the limit with both lengths in seconds", async () => {
    const file = video("long.mp4");
    const error = await refusal(probeVideo(file, OPTIONS));
    expect(error.code).toBe("payload_too_large:upload");
    expect(error.status).toBe(413);
    expect(error.message).toBe("The video is 310 s long; the limit is 120 s.");
  });

  it("refuses a WebM cut in half: header intact, frames missing", async () => {
    const full = bytesOf.get("whole.webm")!;
    const file = writeBytes("half.webm", full.subarray(0, Math.floor(full.length / 2)));
    expect((await fileTypeFromBuffer(readFileSync(file)))?.mime).toBe("video/webm");
    const error = await refusal(probeVideo(file, OPTIONS));
    expect(error.code).toBe("bad_request:upload");
    expect(error.status).toBe(400);
    expect(error.message).toContain("truncated");
    expect(error.message).toContain("6.0 s");
  });

  it("refuses an MP4 cut in half (its index is lost)", async () => {
    const full = bytesOf.get("whole.mp4")!;
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

  it("does not let FFmpeg follow a playlist to another file", async () => {
    // Plain cv2.VideoCapture opens this concat playlist and plays the sibling (sibling.mp4, in VIDEOS)
    // video; the probe's format whitelist must refuse it.
    const playlist = writeBytes("playlist.mp4", new TextEncoder().encode("ffconcat version 1.0\nfile sibling.mp4\n"));
    const error = await refusal(probeVideo(playlist, OPTIONS));
    expect(error.code).toBe("bad_request:upload");
    expect(error.message).toContain("could not be opened");
  });

  it("refuses frames over the pixel limit before decoding them", async () => {
    const file = video("wide.mp4");
    const error = await refusal(probeVideo(file, { ...OPTIONS, maxPixels: 50_000 }));
    expect(error.code).toBe("bad_request:upload");
    expect(error.message).toContain("320×240");
  });

  it("kills a probe that runs past its deadline and says so", async () => {
    // A stand-in probe that would run for a minute: the deadline, not the script, must end it.
    const stuck = writeBytes("stuck.py", new TextEncoder().encode("import time\ntime.sleep(60)\n"));
    const file = video("tiny.mp4");
    const started = performance.now();
    const error = await refusal(probeVideo(file, { ...OPTIONS, scriptPath: stuck, timeoutMs: 500 }));
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(error.code).toBe("bad_request:upload");
    expect(error.message).toBe("Reading the video took longer than 0.5 s, so it was stopped; the file may be damaged.");
  });

  it("reports a missing Python as the server's problem (503), not the file's", async () => {
    const file = video("tiny.mp4");
    const error = await refusal(probeVideo(file, { ...OPTIONS, python: "/nonexistent/python3" }));
    expect(error.code).toBe("unavailable:upload");
    expect(error.status).toBe(503);
    expect(error.message).toContain("/nonexistent/python3");
  });
});
