/** Upload bodies: tiny real PNGs, broken and oversized files, hand-built multipart. */
import { deflateSync } from "node:zlib";
import { pngChunk } from "../media";
import type { Rng } from "./rng";
import { randomString } from "./values";

/** A tiny valid PNG: sometimes the fuzzer uploads something real and must get 201. */
export function tinyPng(r: Rng): Uint8Array {
  const w = r.int(1, 8);
  const h = r.int(1, 8);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 0; // greyscale
  const raw = Buffer.alloc((w + 1) * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) raw[y * (w + 1) + 1 + x] = r.int(0, 255);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", deflateSync(raw)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

function fileContent(r: Rng, maxUploadBytes: number): Uint8Array {
  return r.weighted<() => Uint8Array>([
    [3, () => r.bytes(r.int(0, 4096))],
    [2, () => tinyPng(r)],
    [2, () => tinyPng(r).subarray(0, r.int(8, 40))], // truncated
    [1, () => {
      // A PNG header claiming enormous dimensions.
      const p = Buffer.from(tinyPng(r));
      p.writeUInt32BE(r.pick([30_000, 65_535, 0x7fffffff, 0]), 16);
      p.writeUInt32BE(r.pick([30_000, 1, 0x7fffffff, 0]), 20);
      return p;
    }],
    [1, () => Buffer.concat([Buffer.from("GIF89a"), Buffer.from(r.bytes(r.int(0, 64)))])],
    [1, () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from(r.bytes(r.int(0, 256)))])],
    [1, () => Buffer.concat([Buffer.from("RIFF\0\0\0\0WEBPVP8 "), Buffer.from(r.bytes(r.int(0, 128)))])],
    [1, () => Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypmp42"), Buffer.from(r.bytes(r.int(0, 512)))])],
    [1, () => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`)],
    [1, () => r.bytes(maxUploadBytes + r.int(1, 70 * 1024))], // over the limit
  ])();
}

function filename(r: Rng): string {
  return r.pick([
    "a.png",
    "../../x.png",
    "..",
    ".",
    "/etc/passwd",
    "C:\\x.png",
    "x".repeat(300) + ".png",
    "名前.png",
    "\ud83d\udca5.png",
    "a\u0000b.png",
    "with \"quotes\".png",
    "semi;colon.png",
    " ",
    "",
    randomString(r, 40),
  ]);
}

/** A multipart body built by hand: sometimes well-formed, sometimes subtly or badly broken. */
export function randomMultipart(r: Rng, maxUploadBytes: number): { body: Uint8Array; contentType: string } {
  const boundary = r.chance(0.85) ? `----fuzz${r.int(0, 1e9)}` : r.pick(["", "x", '"quoted"', "a".repeat(71), "a".repeat(200), "é"]);
  const parts: Buffer[] = [];
  for (let i = r.int(0, 3); i >= 0; i--) {
    const field = r.weighted([[6, "file"], [1, "File"], [1, "file[]"], [1, randomString(r, 12)]] as const);
    const isFile = r.chance(0.85);
    const headers = [
      isFile
        ? `Content-Disposition: form-data; name="${field}"; filename="${filename(r).replace(/[\r\n"]/g, "_")}"`
        : `Content-Disposition: form-data; name="${field}"`,
      ...(r.chance(0.7) ? [`Content-Type: ${r.pick(["image/png", "application/octet-stream", "text/html", "image/svg+xml", "video/mp4", "", "x/y; z"])}`] : []),
    ];
    const content = isFile ? fileContent(r, maxUploadBytes) : Buffer.from(randomString(r));
    parts.push(Buffer.from(`--${boundary}\r\n${headers.join("\r\n")}\r\n\r\n`), Buffer.from(content), Buffer.from("\r\n"));
  }
  const closing = r.weighted([[8, `--${boundary}--\r\n`], [1, ""], [1, `--${boundary}\r\n`], [1, "--wrong--\r\n"]] as const);
  let body: Uint8Array = Buffer.concat([...parts, Buffer.from(closing)]);
  if (r.chance(0.05)) body = body.subarray(0, r.int(0, body.length)); // cut mid-way
  if (r.chance(0.03)) body = r.bytes(r.int(0, 2048)); // not multipart at all
  const contentType = r.weighted([
    [10, `multipart/form-data; boundary=${boundary}`],
    [1, "multipart/form-data"],
    [1, `multipart/form-data; boundary=other`],
    [1, `multipart/mixed; boundary=${boundary}`],
    [1, "application/json"],
    [1, ""],
  ] as const);
  return { body, contentType };
}
