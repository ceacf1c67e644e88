import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startArgus, type RunningServer } from "@/tests/helpers/argus-server";
import { bombPng, writeVideos } from "@/tests/helpers/media";
import { tempDir } from "@/tests/helpers/temp-dir";

const scratch = tempDir();
const dataDir = path.join(scratch.dir, "data");
let server: RunningServer;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  // A 1 MB limit so the size check is cheap to trigger.
  server = await startArgus({ dataDir, env: { ARGUS_MAX_UPLOAD_MB: "1" } });
  call = api(server.url);
});
afterAll(async () => {
  await server?.kill();
  scratch.cleanup();
});

async function session() {
  const res = await call("POST", "/api/sessions");
  return res.json as { id: string; token: string };
}

async function upload(s: { id: string; token: string }, bytes: Uint8Array, name: string, mime = "application/octet-stream") {
  const form = new FormData();
  form.set("file", new Blob([bytes as BlobPart], { type: mime }), name);
  return call("POST", `/api/sessions/${s.id}/uploads`, { token: s.token, raw: form });
}

const photo = (w: number, h: number) =>
  sharp({ create: { width: w, height: h, channels: 3, background: { r: 200, g: 120, b: 40 } } });

function blobCount(): number {
  const root = path.join(dataDir, "blobs");
  return readdirSync(root).reduce((n, shard) => n + readdirSync(path.join(root, shard)).length, 0);
}

describe("uploads over HTTP", () => {
  it("stores an image once, measures it, thumbnails it and puts it in the workspace", async () => {
    const s = await session();
    const bytes = await photo(640, 480).png().toBuffer();
    const res = await upload(s, bytes, "coins.png", "image/png");
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ name: "coins.png", kind: "image", mime: "image/png", width: 640, height: 480 });
    expect(res.json.url).toBe(`/api/files/${res.json.id}`);

    const file = await fetch(server.url + res.json.url, { headers: { authorization: `Bearer ${s.token}` } });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/png");
    expect(file.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);

    const thumb = await fetch(server.url + res.json.thumbnailUrl, { headers: { authorization: `Bearer ${s.token}` } });
    const meta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
    expect(meta.format).toBe("webp");
    expect(Math.max(meta.width!, meta.height!)).toBe(256);

    const ranged = await fetch(server.url + res.json.url, { headers: { authorization: `Bearer ${s.token}`, range: "bytes=0-7" } });
    expect(ranged.status).toBe(206);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(0, 8))).toBe(true);

    const inWorkspace = path.join(dataDir, "sessions", s.id, "coins.png");
    expect(readFileSync(inWorkspace).equals(bytes)).toBe(true);

    // The same bytes again, in another session: one more file row, no new blob.
    const before = blobCount();
    const other = await session();
    const again = await upload(other, bytes, "coins.png", "image/png");
    expect(again.status).toBe(201);
    expect(blobCount()).toBe(before);
    // The same name twice in one session gets a fresh workspace name.
    const twice = await upload(s, bytes, "coins.png", "image/png");
    expect(twice.json.name).toBe("coins-1.png");
  });

  it("accepts JPEG, WebP, GIF, an EXIF-rotated photo, MP4 and WebM", async () => {
    const s = await session();
    for (const [format, mime] of [["jpeg", "image/jpeg"], ["webp", "image/webp"], ["gif", "image/gif"]] as const) {
      const res = await upload(s, await photo(120, 80).toFormat(format).toBuffer(), `pic.${format}`);
      expect(res.status, format).toBe(201);
      expect(res.json).toMatchObject({ mime, width: 120, height: 80 });
    }
    const rotated = await photo(120, 80).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    expect((await upload(s, rotated, "rotated.jpg")).json).toMatchObject({ width: 80, height: 120 });

    const clips = [["mp4v", "mp4", "video/mp4"], ["VP80", "webm", "video/webm"]] as const;
    // Both videos in one OpenCV import (tests/helpers/media.ts).
    const written = writeVideos(clips.map(([fourcc, ext]) => ({ file: path.join(scratch.dir, `clip.${ext}`), fourcc, fps: 10, frames: 20, width: 160, height: 120 })));
    for (const [i, [, ext, mime]] of clips.entries()) {
      const bytes = written[i]!;
      const res = await upload(s, bytes, `clip.${ext}`);
      expect(res.status, ext).toBe(201);
      expect(res.json).toMatchObject({ kind: "video", mime, width: 160, height: 120 });
      expect(res.json.durationSec).toBeCloseTo(2, 0);
    }
  });

  it("refuses bad uploads with a readable 4xx and writes nothing outside data/", async () => {
    const s = await session();
    const png = await photo(64, 64).png().toBuffer();
    const jpeg = await photo(400, 300).jpeg().toBuffer();
    const cases: [string, Uint8Array, string, number, RegExp][] = [
      ["text named .png", new TextEncoder().encode("hello, not a picture"), "x.png", 415, /not a known image or video|not an image/i],
      ["a PDF named .png", new TextEncoder().encode("%PDF-1.7\n1 0 obj\n<<>>\nendobj\n"), "x.png", 415, /PDF/],
      ["a truncated PNG", png.subarray(0, Math.floor(png.length / 2)), "half.png", 400, /truncated|damaged/i],
      ["a truncated JPEG", jpeg.subarray(0, Math.floor(jpeg.length / 2)), "half.jpg", 400, /truncated|damaged/i],
      ["a 30000×30000 bomb", bombPng(), "bomb.png", 413, /30000×30000/],
      ["a path in the name", png, "../../x.png", 400, /name/i],
      ["an empty file", new Uint8Array(), "empty.png", 400, /empty/i],
    ];
    for (const [label, bytes, name, status, reason] of cases) {
      const res = await upload(s, bytes, name);
      expect(res.status, label).toBe(status);
      expect(res.json.error.message, label).toMatch(reason);
    }
    const big = new Uint8Array(2 * 1024 * 1024);
    big.set(png);
    const tooBig = await upload(s, big, "big.png");
    expect(tooBig.status).toBe(413);
    expect(tooBig.json.error.message).toMatch(/1 MB/);

    const noFile = await call("POST", `/api/sessions/${s.id}/uploads`, { token: s.token, raw: new FormData() });
    expect(noFile.status).toBe(400);
    expect(noFile.json.error.field).toBe("file");
    const notMultipart = await call("POST", `/api/sessions/${s.id}/uploads`, { token: s.token, body: { file: "x" } });
    expect(notMultipart.status).toBe(415);

    expect(existsSync(path.join(scratch.dir, "x.png"))).toBe(false);
    expect(existsSync(path.join(dataDir, "x.png"))).toBe(false);
    expect(readdirSync(path.join(dataDir, "sessions", s.id))).toEqual([]);
    expect((await call("GET", "/api/health")).status).toBe(200);
  });

  it("keeps files private to their session", async () => {
    const a = await session();
    const b = await session();
    const res = await upload(a, await photo(10, 10).png().toBuffer(), "secret.png");
    const url = server.url + res.json.url;
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: `Bearer ${b.token}` } })).status).toBe(403);
    expect((await fetch(`${server.url}/api/files/00000000-0000-4000-8000-000000000000`, { headers: { authorization: `Bearer ${a.token}` } })).status).toBe(403);
    const upToB = await upload({ id: a.id, token: b.token }, await photo(10, 10).png().toBuffer(), "x.png");
    expect(upToB.status).toBe(403);
  });
});
