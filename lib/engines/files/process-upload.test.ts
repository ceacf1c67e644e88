import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { formatBytes, processUpload, type UploadInput } from "@/lib/engines/files/process-upload";
import { bombPng, refusal, TEST_PYTHON, writeVideos } from "@/tests/helpers/media";

const MB = 1024 * 1024;
const LIMITS = { maxBytes: 50 * MB, maxPixels: 100_000_000, maxVideoSeconds: 120 };

const root = mkdtempSync(path.join(os.tmpdir(), "argus-upload-test-"));
let tmpDir: string;
beforeEach(() => {
  tmpDir = mkdtempSync(path.join(root, "tmp-"));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

function upload(bytes: Uint8Array, filename: string, overrides: Partial<UploadInput> = {}) {
  return processUpload({ bytes, filename, limits: LIMITS, python: TEST_PYTHON, tmpDir, ...overrides });
}

const picture = (width = 320, height = 200) =>
  sharp({ create: { width, height, channels: 3, background: "#2a9d8f" } });

describe("processUpload: images", () => {
  it("returns everything the route stores for a PNG", async () => {
    const bytes = await picture().png().toBuffer();
    const result = await upload(bytes, "  chart.png ");
    expect(result).toMatchObject({
      name: "chart.png",
      kind: "image",
      mime: "image/png",
      ext: "png",
      size: bytes.length,
      width: 320,
      height: 200,
      durationSec: null,
      thumbnailMime: "image/webp",
    });
    expect((await sharp(result.thumbnail).metadata()).format).toBe("webp");
  });

  it("trusts the bytes, not the name: JPEG bytes called .png are a JPEG", async () => {
    const result = await upload(await picture().jpeg().toBuffer(), "photo.png");
    expect(result).toMatchObject({ name: "photo.png", mime: "image/jpeg", ext: "jpg" });
  });
});

describe("processUpload: refusals", () => {
  it("refuses an oversized file first, stating both sizes", async () => {
    const bytes = new Uint8Array(Math.round(61.2 * MB));
    // The name is bad too, but the size is checked before anything else.
    const error = await refusal(upload(bytes, "../x.png"));
    expect(error.code).toBe("payload_too_large:upload");
    expect(error.status).toBe(413);
    expect(error.message).toBe("The file is 61.2 MB; the limit is 50 MB.");
  });

  it("does not claim a file one byte over is the same size as the limit", async () => {
    const error = await refusal(upload(new Uint8Array(1025), "x.png", { limits: { ...LIMITS, maxBytes: 1024 } }));
    expect(error.message).toBe("The file is just over 1 KB; the limit is 1 KB.");
  });

  it("refuses an empty file", async () => {
    const error = await refusal(upload(new Uint8Array(0), "x.png"));
    expect(error.code).toBe("bad_request:upload");
    expect(error.message).toContain("empty");
  });

  it.each(["../../x.png", "a/b.png", "..", "\u0000x.png", `${"n".repeat(296)}.png`])(
    "refuses the name %j with a 400 even when the bytes are fine",
    async (name) => {
      const error = await refusal(upload(await picture().png().toBuffer(), name));
      expect(error.code).toBe("bad_request:upload");
      expect(error.field).toBe("file");
    },
  );

  it("refuses a PDF named x.png as a PDF", async () => {
    const pdf = new TextEncoder().encode("%PDF-1.4\n%âãÏÓ\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n");
    const error = await refusal(upload(pdf, "x.png"));
    expect(error.code).toBe("unsupported_media:upload");
    expect(error.status).toBe(415);
    expect(error.message).toBe("The file looks like a PDF document, not an image or a video.");
  });

  it("refuses text named x.png", async () => {
    const error = await refusal(upload(new TextEncoder().encode("hello, this is not a picture"), "x.png"));
    expect(error.code).toBe("unsupported_media:upload");
    expect(error.message).toContain("not a known image or video format");
  });

  it("refuses a decompression bomb with 413 before decoding it", async () => {
    const bomb = bombPng(); // 30000×30000 RGB
    const started = performance.now();
    const error = await refusal(upload(bomb, "tiny.png"));
    expect(performance.now() - started).toBeLessThan(500);
    expect(error.code).toBe("payload_too_large:upload");
    expect(error.message).toContain("30000×30000 (900 megapixels)");
  });

  it("refuses a truncated JPEG with 400", async () => {
    const full = await picture(800, 600).jpeg({ quality: 95 }).toBuffer();
    const error = await refusal(upload(full.subarray(0, full.length >> 1), "cut.jpg"));
    expect(error.code).toBe("bad_request:upload");
    expect(error.message).toContain("truncated JPEG");
  });
});

describe("processUpload: videos", () => {
  // Written together, in one OpenCV import (tests/helpers/media.ts).
  const videos = new Map<string, Buffer>();
  beforeAll(() => {
    const specs = [
      { file: path.join(root, "clip-mp4v.mp4"), fourcc: "mp4v", fps: 10, frames: 15 },
      { file: path.join(root, "clip-VP80.webm"), fourcc: "VP80", fps: 10, frames: 15 },
      { file: path.join(root, "long.mp4"), fourcc: "mp4v", fps: 2, frames: 30 }, // 15 s
      { file: path.join(root, "whole.webm"), fourcc: "VP80", fps: 10, frames: 40 },
    ];
    writeVideos(specs).forEach((bytes, i) => videos.set(path.basename(specs[i]!.file), bytes));
  });

  it.each([
    ["mp4v", "mp4", "video/mp4"],
    ["VP80", "webm", "video/webm"],
  ])("probes a %s %s and cleans up its temp files", async (fourcc, ext, mime) => {
    const bytes = videos.get(`clip-${fourcc}.${ext}`)!;
    const result = await upload(bytes, `clip.${ext}`);
    expect(result).toMatchObject({ name: `clip.${ext}`, kind: "video", mime, ext, size: bytes.length });
    expect(result).toMatchObject({ width: 96, height: 64, durationSec: 1.5, thumbnailMime: "image/webp" });
    expect(readdirSync(tmpDir)).toEqual([]);
  });

  it("refuses a video over the length limit and still cleans up", async () => {
    const bytes = videos.get("long.mp4")!;
    const error = await refusal(upload(bytes, "long.mp4", { limits: { ...LIMITS, maxVideoSeconds: 10 } }));
    expect(error.code).toBe("payload_too_large:upload");
    expect(error.message).toBe("The video is 15 s long; the limit is 10 s.");
    expect(readdirSync(tmpDir)).toEqual([]);
  });

  it("refuses a truncated WebM with 400 and still cleans up", async () => {
    const full = videos.get("whole.webm")!;
    const error = await refusal(upload(full.subarray(0, full.length >> 1), "cut.webm"));
    expect(error.code).toBe("bad_request:upload");
    expect(error.message).toContain("truncated");
    expect(readdirSync(tmpDir)).toEqual([]);
  });
});

describe("formatBytes", () => {
  it.each([
    [512, "512 bytes"],
    [1536, "1.5 KB"],
    [50 * MB, "50 MB"],
    [3 * 1024 * MB, "3 GB"],
  ])("formats %d as %s", (bytes, shown) => {
    expect(formatBytes(bytes)).toBe(shown);
  });
});
