import { describe, expect, it } from "vitest";
import { checkUpload } from "./upload-rules";

const MB = 1024 * 1024;

describe("checkUpload", () => {
  it("accepts images and short videos by type, or by extension when the browser gives none", () => {
    expect(checkUpload({ name: "a.png", type: "image/png", size: 10 }, MB)).toBeNull();
    expect(checkUpload({ name: "clip.webm", type: "video/webm", size: 10 }, MB)).toBeNull();
    expect(checkUpload({ name: "IMG_1.HEIC", type: "", size: 10 }, MB)).toBeNull();
  });
  it("refuses other types, empty files and files over the limit, saying why", () => {
    expect(checkUpload({ name: "doc.pdf", type: "application/pdf", size: 10 }, MB)).toMatch(/doc\.pdf is not a supported file/);
    expect(checkUpload({ name: "a.png", type: "image/png", size: 0 }, MB)).toMatch(/empty/);
    expect(checkUpload({ name: "big.png", type: "image/png", size: 3 * MB }, MB)).toMatch(/3\.0 MB; the limit is 1\.0 MB/);
  });
});
