import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { MAX_HEADER_PIXELS, readImageHeader } from "./image-header";

const picture = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: "#336699" } });

describe("readImageHeader", () => {
  it("reads a PNG's size from IHDR", async () => {
    expect(readImageHeader(await picture(37, 21).png().toBuffer())).toEqual({ format: "png", width: 37, height: 21 });
  });

  it("reads a JPEG's size from its frame header, past the segments before it", async () => {
    const jpeg = await picture(64, 48).jpeg().withMetadata({ exif: { IFD0: { Copyright: "argus" } } }).toBuffer();
    expect(readImageHeader(jpeg)).toEqual({ format: "jpeg", width: 64, height: 48 });
    const progressive = await picture(50, 30).jpeg({ progressive: true }).toBuffer();
    expect(readImageHeader(progressive)).toEqual({ format: "jpeg", width: 50, height: 30 });
  });

  it("refuses text, an empty file, and a PNG signature without a header", async () => {
    expect(readImageHeader(Buffer.from("not a picture at all, just text written as .png"))).toBeNull();
    expect(readImageHeader(new Uint8Array())).toBeNull();
    const png = await picture(8, 8).png().toBuffer();
    expect(readImageHeader(png.subarray(0, 20))).toBeNull();
  });

  it("refuses a PNG header with an impossible bit depth or a zero size", async () => {
    const png = Buffer.from(await picture(8, 8).png().toBuffer());
    const badDepth = Buffer.from(png);
    badDepth[24] = 3;
    expect(readImageHeader(badDepth)).toBeNull();
    const zero = Buffer.from(png);
    zero.writeUInt32BE(0, 16);
    expect(readImageHeader(zero)).toBeNull();
  });

  it("refuses a header claiming more pixels than the decoder would accept (a bomb)", async () => {
    const png = Buffer.from(await picture(8, 8).png().toBuffer());
    png.writeUInt32BE(100_000, 16);
    png.writeUInt32BE(100_000, 20);
    expect(100_000 * 100_000).toBeGreaterThan(MAX_HEADER_PIXELS);
    expect(readImageHeader(png)).toBeNull();
  });

  it("refuses a JPEG whose segments run off the end before a frame", async () => {
    const jpeg = await picture(16, 16).jpeg().toBuffer();
    expect(readImageHeader(jpeg.subarray(0, 6))).toBeNull();
  });
});
