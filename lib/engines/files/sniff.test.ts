import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { sniffMedia } from "@/lib/engines/files/sniff";
import { refusal } from "@/tests/helpers/media";

const square = () => sharp({ create: { width: 8, height: 8, channels: 3, background: "#3366cc" } });

describe("sniffMedia", () => {
  it.each([
    ["png", "image/png"],
    ["jpeg", "image/jpeg"],
    ["webp", "image/webp"],
    ["gif", "image/gif"],
    ["avif", "image/avif"],
  ] as const)("recognises %s from its bytes", async (format, mime) => {
    const bytes = await square().toFormat(format).toBuffer();
    const sniffed = await sniffMedia(bytes);
    expect(sniffed.kind).toBe("image");
    expect(sniffed.mime).toBe(mime);
  });

  it("ignores what the name claims: JPEG bytes are JPEG", async () => {
    const bytes = await square().jpeg().toBuffer();
    expect(await sniffMedia(bytes)).toEqual({ kind: "image", mime: "image/jpeg", ext: "jpg" });
  });

  it("refuses plain text and says it is not a known format", async () => {
    const error = await refusal(sniffMedia(new TextEncoder().encode("just some notes, not a picture\n")));
    expect(error.code).toBe("unsupported_media:upload");
    expect(error.status).toBe(415);
    expect(error.message).toContain("not a known image or video format");
  });

  it("names a PDF as a PDF", async () => {
    const pdf = new TextEncoder().encode("%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n");
    const error = await refusal(sniffMedia(pdf));
    expect(error.code).toBe("unsupported_media:upload");
    expect(error.message).toBe("The file looks like a PDF document, not an image or a video.");
  });

  it("refuses a TIFF image and lists what is accepted", async () => {
    const error = await refusal(sniffMedia(await square().tiff().toBuffer()));
    expect(error.code).toBe("unsupported_media:upload");
    expect(error.message).toContain("TIFF image");
    expect(error.message).toContain("PNG, JPEG");
  });

  it("refuses an empty buffer", async () => {
    const error = await refusal(sniffMedia(new Uint8Array(0)));
    expect(error.code).toBe("unsupported_media:upload");
  });
});
