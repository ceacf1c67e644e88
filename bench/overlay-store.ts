/**
 * Where storing one batch overlay costs CPU (issue #15): sharp's metadata, the webp thumbnail,
 * the blob writes and the file row, each timed apart over the coin-count function's overlays.
 *
 *   npx tsx bench/overlay-store.ts   BENCH_OVERLAYS=100
 */
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { BlobStore } from "@/lib/engines/db/blobs";
import { migrate, openDatabase } from "@/lib/engines/db/database";
import { insertFile } from "@/lib/engines/db/files";
import { readImageHeader } from "@/lib/engines/files/image-header";
import { coinImage } from "@/tests/helpers/coin-images";
import { tempDir } from "@/tests/helpers/temp-dir";

const N = Number(process.env.BENCH_OVERLAYS ?? 100);

async function timed(label: string, work: (i: number) => Promise<unknown>): Promise<void> {
  const t = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < N; i++) await work(i);
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000 / N;
  console.log(`${label.padEnd(26)}: ${((performance.now() - t) / N).toFixed(2)} ms wall, ${cpuMs.toFixed(2)} ms CPU per overlay`);
}

async function main() {
  console.log(`bench:overlay-store — ${N} overlays; load average ${os.loadavg().map((n) => n.toFixed(2)).join(" ")}`);
  const scratch = tempDir("argus-overlay-");
  try {
    // Overlays as the function saves them: a PNG of the coin photo with boxes (a recoloured copy stands in).
    const overlays = await Promise.all(Array.from({ length: N }, async (_, i) => sharp(await coinImage(1 + (i % 17), i + 1)).tint("#ff0000").png().toBuffer()));
    const db = await openDatabase(path.join(scratch.dir, "a.db"));
    await migrate(db);
    const blobs = new BlobStore(path.join(scratch.dir, "blobs"));
    await timed("header read (PNG IHDR)", async (i) => readImageHeader(overlays[i]!));
    await timed("sharp metadata", async (i) => sharp(overlays[i]!).metadata());
    await timed("sharp webp thumbnail", async (i) => sharp(overlays[i]!).resize(256, 256, { fit: "inside", withoutEnlargement: true }).webp().toBuffer());
    await timed("blob put (overlay)", async (i) => blobs.put(overlays[i]!));
    const sessionId = randomUUID();
    await db.run("INSERT INTO sessions (id, token_hash, title, created_at, updated_at) VALUES (?, 'x', 't', '2026-01-01', '2026-01-01')", [sessionId]);
    await timed("file row insert", async (i) =>
      insertFile(db, { id: randomUUID(), sessionId, origin: "generated", name: `o${i}.png`, kind: "image", mime: "image/png", size: overlays[i]!.length, sha256: BlobStore.hash(overlays[i]!), width: 1, height: 1, durationSec: null, thumbSha256: null, thumbMime: null, createdAt: new Date().toISOString() }),
    );
    await db.close?.();
  } finally {
    scratch.cleanup();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
