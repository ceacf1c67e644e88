import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { probeImage } from "@/lib/engines/files/image-probe";
import { sniffMedia } from "@/lib/engines/files/sniff";
import { bombPng, noisyImage, refusal, TEST_PYTHON } from "@/tests/helpers/media";

const LIMIT = { maxPixels: 100_000_000 };

async function thumbnailSize(thumbnail: Buffer) {
  const meta = await sharp(thumbnail).metadata();
  return { format: meta.format, width: meta.width, height: meta.height, pages: meta.pages ?? 1 };
}

describe("probeImage: good images", () => {
  it.each(["png", "jpeg", "webp", "gif"] as const)("measures a %s and makes a WebP thumbnail", async (format) => {
    const bytes = await noisyImage(640, 480).toFormat(format).toBuffer();
    const probe = await probeImage(bytes, LIMIT);
    expect(probe).toMatchObject({ width: 640, height: 480, thumbnailMime: "image/webp" });
    expect(await thumbnailSize(probe.thumbnail)).toMatchObject({ format: "webp", width: 256, height: 192 });
  });

  it("does not enlarge an image smaller than the thumbnail", async () => {
    const probe = await probeImage(await noisyImage(40, 20).png().toBuffer(), LIMIT);
    expect(await thumbnailSize(probe.thumbnail)).toMatchObject({ width: 40, height: 20 });
  });

  it("reports an animated GIF's frame size, not the whole strip", async () => {
    const bytes = await noisyImage(40, 30, 5).gif({ delay: [100, 100, 100, 100, 100] }).toBuffer();
    expect((await sharp(bytes).metadata()).pages).toBe(5);
    const probe = await probeImage(bytes, LIMIT);
    expect(probe).toMatchObject({ width: 40, height: 30 });
    expect(await thumbnailSize(probe.thumbnail)).toMatchObject({ width: 40, height: 30, pages: 1 });
  });

  it("reports an animated WebP's frame size", async () => {
    const bytes = await noisyImage(64, 48, 3).webp().toBuffer();
    expect((await sharp(bytes).metadata()).pages).toBe(3);
    expect(await probeImage(bytes, LIMIT)).toMatchObject({ width: 64, height: 48 });
  });

  it("reports the displayed size of an EXIF-rotated JPEG and rotates the thumbnail", async () => {
    // Stored 300 wide × 100 high; orientation 6 means "turn 90° clockwise to display".
    const bytes = await noisyImage(300, 100).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const stored = await sharp(bytes).metadata();
    expect([stored.width, stored.height, stored.orientation]).toEqual([300, 100, 6]);
    const probe = await probeImage(bytes, LIMIT);
    expect(probe).toMatchObject({ width: 100, height: 300 });
    const thumb = await thumbnailSize(probe.thumbnail);
    expect(thumb.height).toBe(256);
    expect(thumb.width).toBeLessThan(thumb.height);
  });

  it("accepts an image exactly at the pixel limit", async () => {
    const bytes = await noisyImage(100, 100).png().toBuffer();
    expect(await probeImage(bytes, { maxPixels: 10_000 })).toMatchObject({ width: 100, height: 100 });
  });
});

describe("probeImage: refusals", () => {
  it("refuses a 30000×30000 header before decoding anything, quickly", async () => {
    const bytes = bombPng();
    expect(bytes.length).toBeLessThan(100);
    const started = performance.now();
    const error = await refusal(probeImage(bytes, LIMIT));
    const elapsed = performance.now() - started;
    expect(error.code).toBe("payload_too_large:upload");
    expect(error.status).toBe(413);
    expect(error.message).toBe("The image is 30000×30000 (900 megapixels); the limit is 100 megapixels.");
    expect(elapsed).toBeLessThan(500);
  });

  it("refuses an image one pixel over a small limit and states both sizes", async () => {
    const error = await refusal(probeImage(await noisyImage(101, 100).png().toBuffer(), { maxPixels: 10_000 }));
    expect(error.code).toBe("payload_too_large:upload");
    expect(error.message).toContain("101×100");
    expect(error.message).toBe("The image is 101×100 (just over 0.01 megapixels); the limit is 0.01 megapixels.");
  });

  it.each([
    ["png", "PNG"],
    ["jpeg", "JPEG"],
    ["gif", "GIF"],
    ["webp", "WebP"],
  ] as const)("refuses a %s cut in half as truncated", async (format, name) => {
    const full = await noisyImage(640, 480).toFormat(format).toBuffer();
    const half = full.subarray(0, Math.floor(full.length / 2));
    const error = await refusal(probeImage(half, LIMIT));
    expect(error.code).toBe("bad_request:upload");
    expect(error.status).toBe(400);
    expect(error.message).toBe(
      `The file is a truncated ${name}: it ends before the image data does. Upload the complete file.`,
    );
  });

  it("refuses a JPEG missing only its end marker", async () => {
    const full = await noisyImage(640, 480).jpeg().toBuffer();
    const error = await refusal(probeImage(full.subarray(0, full.length - 2), LIMIT));
    expect(error.code).toBe("bad_request:upload");
    expect(error.message).toContain("truncated JPEG");
  });

  it("refuses a complete-length PNG with scribbled image data as damaged", async () => {
    const bytes = Buffer.from(await noisyImage(640, 480).png().toBuffer());
    const middle = Math.floor(bytes.length / 2);
    for (let i = 0; i < 64; i += 1) bytes[middle + i] = (i * 37) & 0xff;
    const error = await refusal(probeImage(bytes, LIMIT));
    expect(error.code).toBe("bad_request:upload");
    expect(error.message).toBe("The file is a damaged PNG: its image data could not be decoded.");
  });

  it("refuses formats outside the upload list even though sharp reads them (SVG)", async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
    const error = await refusal(probeImage(svg, LIMIT));
    expect(error.code).toBe("unsupported_media:upload");
    expect(error.message).toContain("SVG");
  });

  it("rejects a non-positive pixel limit, which sharp would read as 'no limit'", async () => {
    await expect(probeImage(bombPng(), { maxPixels: 0 })).rejects.toThrow(RangeError);
  });
});

// ---- HEIC: a real HEVC-coded still, built from a one-frame HEVC MP4 written by OpenCV ----

type Box = { type: string; start: number; body: number; end: number };

function boxes(buf: Buffer, from: number, to: number): Box[] {
  const found: Box[] = [];
  for (let at = from; at + 8 <= to; ) {
    const size = buf.readUInt32BE(at);
    if (size < 8) break;
    found.push({ type: buf.toString("latin1", at + 4, at + 8), start: at, body: at + 8, end: at + size });
    at += size;
  }
  return found;
}

function child(buf: Buffer, parent: Box, type: string, skip = 0): Box {
  const found = boxes(buf, parent.body + skip, parent.end).find((box) => box.type === type);
  if (!found) throw new Error(`no ${type} box inside ${parent.type}`);
  return found;
}

function box(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length + 8);
  head.write(type, 4, "latin1");
  return Buffer.concat([head, body]);
}

const u8 = (...values: number[]) => Buffer.from(values);
const u16 = (value: number) => Buffer.from([value >> 8, value & 0xff]);
const u32 = (value: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(value);
  return b;
};
const text = (value: string) => Buffer.from(value, "latin1");
const fullBox = (type: string, version: number, ...parts: Buffer[]) => box(type, u8(version, 0, 0, 0), ...parts);

/** Returns a HEIC file, or undefined when this machine's OpenCV cannot write HEVC. */
function makeHeic(width: number, height: number): Buffer | undefined {
  const dir = mkdtempSync(path.join(os.tmpdir(), "argus-heic-"));
  try {
    const mp4 = path.join(dir, "one.mp4");
    const script = [
      "import sys, cv2, numpy as np",
      "w, h = int(sys.argv[2]), int(sys.argv[3])",
      "out = cv2.VideoWriter(sys.argv[1], cv2.VideoWriter_fourcc(*'hvc1'), 1.0, (w, h))",
      "sys.exit(3) if not out.isOpened() else None",
      "out.write(np.full((h, w, 3), (40, 120, 200), np.uint8))",
      "out.release()",
    ].join("\n");
    const run = spawnSync(TEST_PYTHON, ["-c", script, mp4, String(width), String(height)]);
    if (run.status !== 0) return undefined;
    const file = readFileSync(mp4);

    const top = boxes(file, 0, file.length);
    const moov = top.find((b) => b.type === "moov");
    if (!moov) return undefined;
    const stbl = child(file, child(file, child(file, child(file, moov, "trak"), "mdia"), "minf"), "stbl");
    const stsd = child(file, stbl, "stsd");
    // stsd: version/flags + entry count, then the hvc1 sample entry, whose own
    // boxes start after 78 bytes of VisualSampleEntry fields.
    const entry = boxes(file, stsd.body + 8, stsd.end)[0];
    if (!entry || entry.type !== "hvc1") return undefined;
    const hvcC = child(file, entry, "hvcC", 78);
    const stsz = child(file, stbl, "stsz");
    const fixedSize = file.readUInt32BE(stsz.body + 4);
    const sampleSize = fixedSize !== 0 ? fixedSize : file.readUInt32BE(stsz.body + 12);
    const stco = child(file, stbl, "stco");
    const sampleOffset = file.readUInt32BE(stco.body + 8);
    const sample = file.subarray(sampleOffset, sampleOffset + sampleSize);

    const ftyp = box("ftyp", text("heic"), u32(0), text("mif1"), text("heic"));
    const buildMeta = (dataOffset: number) =>
      fullBox(
        "meta",
        0,
        fullBox("hdlr", 0, u32(0), text("pict"), Buffer.alloc(12), u8(0)),
        fullBox("pitm", 0, u16(1)),
        // offset_size 4, length_size 4, base_offset_size 0; one item, one extent.
        fullBox("iloc", 0, u8(0x44, 0x00), u16(1), u16(1), u16(0), u16(1), u32(dataOffset), u32(sample.length)),
        fullBox("iinf", 0, u16(1), fullBox("infe", 2, u16(1), u16(0), text("hvc1"), u8(0))),
        box(
          "iprp",
          box("ipco", file.subarray(hvcC.start, hvcC.end), fullBox("ispe", 0, u32(width), u32(height))),
          // item 1: property 1 (hvcC, essential) and property 2 (ispe).
          fullBox("ipma", 0, u32(1), u16(1), u8(2), u8(0x81, 0x02)),
        ),
      );
    // The meta box's size does not depend on the offset it stores, so measure once.
    const dataOffset = ftyp.length + buildMeta(0).length + 8;
    return Buffer.concat([ftyp, buildMeta(dataOffset), box("mdat", sample)]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const heicReadable = sharp.format.heif?.input.fileSuffix?.includes(".heic") === true;

describe("probeImage: HEIC", () => {
  const heic = makeHeic(160, 120);

  it.skipIf(heic === undefined)("builds a real HEIC that sniffs as image/heic and whose header sharp reads", async () => {
    if (!heic) return;
    expect(await sniffMedia(heic)).toMatchObject({ kind: "image", mime: "image/heic" });
    const meta = await sharp(heic).metadata();
    expect(meta).toMatchObject({ format: "heif", compression: "hevc", width: 160, height: 120 });
  });

  it.skipIf(heic === undefined || heicReadable)("says HEIC can't be decoded here when sharp lacks HEVC", async () => {
    if (!heic) return;
    const error = await refusal(probeImage(heic, LIMIT));
    expect(error.code).toBe("unsupported_media:upload");
    expect(error.status).toBe(415);
    expect(error.message).toBe("HEIC images can't be decoded on this server; convert it to JPEG or PNG first.");
  });

  it.skipIf(heic === undefined || !heicReadable)("measures a HEIC when sharp has HEVC", async () => {
    if (!heic) return;
    expect(await probeImage(heic, LIMIT)).toMatchObject({ width: 160, height: 120 });
  });

  it("decodes AVIF, the HEIF flavour the prebuilt sharp does read", async () => {
    const bytes = await noisyImage(96, 64).avif().toBuffer();
    expect(await probeImage(bytes, LIMIT)).toMatchObject({ width: 96, height: 64 });
  });
});
