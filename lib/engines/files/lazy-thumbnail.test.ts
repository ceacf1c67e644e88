import { writeFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { BlobStore } from "@/lib/engines/db/blobs";
import { getFile } from "@/lib/engines/db/files";
import { insertSession } from "@/lib/engines/db/sessions";
import { isArgusError } from "@/lib/foundation/errors";
import { testDatabases } from "@/tests/helpers/test-database";
import { tempDir } from "@/tests/helpers/temp-dir";
import { storeGeneratedImage } from "./generated";
import { MAX_HEADER_PIXELS } from "./image-header";
import { needsVerification, verifiedFile } from "./lazy-thumbnail";

const dbs = testDatabases();
const scratch = tempDir("argus-lazy-thumb-");
afterAll(() => {
  dbs.cleanup();
  scratch.cleanup();
});

async function world(name: string) {
  const db = await dbs.open(name);
  await insertSession(db, { id: "s1", tokenHash: "h", browserHash: null, now: "t" });
  return { db, blobs: new BlobStore(path.join(scratch.dir, name)) };
}

const overlay = () => sharp({ create: { width: 120, height: 80, channels: 3, background: "#aa3300" } }).png().toBuffer();
const meta = { name: "overlay.png", mime: "image/png" as const, label: "f: overlay.png" };

describe("lazy thumbnails of generated pictures", () => {
  it("stores a lazy overlay with its header's size and no thumbnail; the first request decodes it and stores the thumbnail", async () => {
    const deps = await world("first");
    const stored = (await storeGeneratedImage(deps, "s1", await overlay(), meta, { thumbnail: "lazy" }))!;
    expect(stored).toMatchObject({ width: 120, height: 80 });
    const row = (await getFile(deps.db, stored.fileId))!;
    expect(row.thumbSha256).toBeNull();
    expect(needsVerification(row)).toBe(true);

    const checked = await verifiedFile(deps, row);
    expect(checked.thumbMime).toBe("image/webp");
    const thumb = await sharp(await deps.blobs.read(checked.thumbSha256!)).metadata();
    expect(thumb).toMatchObject({ format: "webp", width: 120, height: 80 });
    // Kept on the row: the next request finds it and decodes nothing.
    const again = (await getFile(deps.db, stored.fileId))!;
    expect(again.thumbSha256).toBe(checked.thumbSha256);
    expect(needsVerification(again)).toBe(false);
  });

  it("never stores text a kernel wrote as .png", async () => {
    const deps = await world("text");
    expect(await storeGeneratedImage(deps, "s1", Buffer.from("print('hello')\n".repeat(50)), meta, { thumbnail: "lazy" })).toBeNull();
  });

  it("refuses to serve a file whose header looks like a PNG but whose body is not a picture", async () => {
    const deps = await world("forged");
    const png = await overlay();
    // A real PNG header (signature and IHDR), then garbage where the pixels should be.
    const forged = Buffer.concat([png.subarray(0, 33), Buffer.from("<script>alert(1)</script>".repeat(40))]);
    const stored = (await storeGeneratedImage(deps, "s1", forged, meta, { thumbnail: "lazy" }))!;
    expect(stored).not.toBeNull(); // the cheap check passes…
    const row = (await getFile(deps.db, stored.fileId))!;
    const refusal = await verifiedFile(deps, row).then(
      () => null,
      (error: unknown) => error,
    );
    // …and the full decode before serving refuses it, every time.
    expect(isArgusError(refusal) && refusal.code).toBe("unprocessable:file");
    expect((await getFile(deps.db, stored.fileId))!.thumbSha256).toBeNull();
  });

  it("remembers a file that did not decode: the next request is refused without decoding it again", async () => {
    const deps = await world("truncated");
    const png = await overlay();
    const truncated = png.subarray(0, Math.floor(png.length * 0.6));
    const stored = (await storeGeneratedImage(deps, "s1", truncated, meta, { thumbnail: "lazy" }))!;
    const row = (await getFile(deps.db, stored.fileId))!;
    await expect(verifiedFile(deps, row)).rejects.toMatchObject({ code: "unprocessable:file" });
    // Were it decoded again, these bytes (a whole picture now under the same address) would pass.
    writeFileSync(deps.blobs.pathOf(row.sha256), png);
    await expect(verifiedFile(deps, row)).rejects.toMatchObject({ code: "unprocessable:file" });
  });

  it("refuses at store time a header past the pixel limit (a few hundred KB that would take the server's CPU to decode)", async () => {
    const deps = await world("bomb");
    const png = Buffer.from(await overlay());
    png.writeUInt32BE(16_383, 16);
    png.writeUInt32BE(16_383, 20);
    expect(16_383 * 16_383).toBeGreaterThan(MAX_HEADER_PIXELS);
    expect(await storeGeneratedImage(deps, "s1", png, meta, { thumbnail: "lazy" })).toBeNull();
  });

  it("records what the bytes are, not what the name says: a JPEG saved as .png is served as a JPEG", async () => {
    const deps = await world("jpeg");
    const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#0033aa" } }).jpeg().toBuffer();
    const stored = (await storeGeneratedImage(deps, "s1", jpeg, meta, { thumbnail: "lazy" }))!;
    expect((await getFile(deps.db, stored.fileId))!.mime).toBe("image/jpeg");
  });
});
