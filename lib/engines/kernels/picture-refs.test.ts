import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { checkPictureBytes, parsePictureRefs, PictureRefError, type PictureRef } from "./picture-refs";

const NAME = "0123456789abcdef0123456789abcdef";
const ref = (over: Partial<PictureRef> = {}) => ({ mime: "image/png", path: `.argus-pictures/${NAME}.png`, size: 10, sha256: "a".repeat(64), ...over });
const bundle = (...files: object[]) => JSON.stringify({ files });

describe("parsePictureRefs", () => {
  it("accepts a reference to a picture file Argus's kernel side names", () => {
    expect(parsePictureRefs(bundle(ref(), ref({ mime: "image/jpeg", path: `.argus-pictures/${NAME}.jpg` })))).toHaveLength(2);
  });

  it.each([
    ["a path leaving the workspace", "../other-session/x.png"],
    ["an absolute path", "/etc/passwd"],
    ["a dotted path into the folder", `.argus-pictures/../${NAME}.png`],
    ["another folder", `uploads/${NAME}.png`],
    ["a nested name", `.argus-pictures/a/${NAME}.png`],
    ["a name Argus did not make", ".argus-pictures/passwd"],
    ["the folder itself", ".argus-pictures"],
  ])("refuses %s", (_, path) => {
    expect(() => parsePictureRefs(bundle(ref({ path })))).toThrow(PictureRefError);
  });

  it("refuses a type that does not match the name, and malformed JSON", () => {
    expect(() => parsePictureRefs(bundle(ref({ mime: "image/jpeg" })))).toThrow(/does not match/);
    expect(() => parsePictureRefs(bundle(ref({ mime: "text/html" as never })))).toThrow(/malformed/);
    expect(() => parsePictureRefs(bundle(ref({ size: -1 })))).toThrow(/malformed/);
    expect(() => parsePictureRefs("{")).toThrow(/not valid JSON/);
    expect(() => parsePictureRefs(bundle())).toThrow(/malformed/);
  });
});

describe("checkPictureBytes", () => {
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from("rest")]);
  const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
  const good = ref({ size: png.length, sha256: sha(png) }) as PictureRef;

  it("passes the bytes the kernel described", () => {
    expect(() => checkPictureBytes(good, png, sha(png))).not.toThrow();
  });

  it("refuses other bytes: another size, another content, another format", () => {
    expect(() => checkPictureBytes(good, png.subarray(1), sha(png.subarray(1)))).toThrow(/changed/);
    const other = Buffer.from(png);
    other[10] = 0;
    expect(() => checkPictureBytes(good, other, sha(other))).toThrow(/content does not match/);
    const text = Buffer.from("root:x:0:0:root");
    expect(() => checkPictureBytes({ ...good, size: text.length, sha256: sha(text) }, text, sha(text))).toThrow(/not a PNG/);
  });
});
