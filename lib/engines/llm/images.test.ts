import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { fitWithin, imagePart } from "./images";

/** A real encoded image of the given size (a gradient, so encoders have work to do). */
async function image(width: number, height: number, format: "png" | "jpeg" | "webp", withExif?: { orientation: number }) {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7) % 256;
  let pipeline = sharp(raw, { raw: { width, height, channels: 3 } });
  if (withExif) pipeline = pipeline.withMetadata({ orientation: withExif.orientation });
  return new Uint8Array(await pipeline.toFormat(format).toBuffer());
}

describe("fitWithin", () => {
  it("caps the long edge and never upscales", () => {
    expect(fitWithin(4000, 1000, 1568)).toEqual({ width: 1568, height: 392 });
    expect(fitWithin(1000, 3136, 1568)).toEqual({ width: 500, height: 1568 });
    expect(fitWithin(640, 480, 1568)).toEqual({ width: 640, height: 480 });
    expect(fitWithin(10_000, 1, 1568)).toEqual({ width: 1568, height: 1 });
  });
});

describe("imagePart", () => {
  it("downscales a large PNG to the long-edge cap, as PNG", async () => {
    const part = await imagePart(await image(2000, 500, "png"));
    expect(part).toMatchObject({ type: "image", mediaType: "image/png", width: 1568, height: 392 });
    const meta = await sharp(part.image).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 1568, 392]);
  });

  it("keeps a photo as JPEG", async () => {
    const part = await imagePart(await image(1600, 1200, "jpeg"), { maxEdge: 800 });
    expect(part).toMatchObject({ mediaType: "image/jpeg", width: 800, height: 600 });
    expect((await sharp(part.image).metadata()).format).toBe("jpeg");
  });

  it("passes a small upright PNG through unchanged", async () => {
    const bytes = await image(64, 48, "png");
    const part = await imagePart(bytes);
    expect(part.image).toBe(bytes);
    expect(part).toMatchObject({ width: 64, height: 48, mediaType: "image/png" });
  });

  it("converts other formats to PNG, without upscaling", async () => {
    const part = await imagePart(await image(30, 20, "webp"));
    expect(part).toMatchObject({ mediaType: "image/png", width: 30, height: 20 });
    expect((await sharp(part.image).metadata()).format).toBe("png");
  });

  it("applies EXIF orientation, so the model sees the picture upright", async () => {
    // Stored 300×100 with "rotate 90°": a person sees 100×300.
    const part = await imagePart(await image(300, 100, "jpeg", { orientation: 6 }), { maxEdge: 150 });
    expect(part).toMatchObject({ width: 50, height: 150 });
    const meta = await sharp(part.image).metadata();
    expect([meta.width, meta.height, meta.orientation ?? 1]).toEqual([50, 150, 1]);
  });

  it("rejects bytes that are not an image", async () => {
    await expect(imagePart(new TextEncoder().encode("not an image"))).rejects.toThrow();
  });
});
