/**
 * Puts a finished download into the session's directory. The directory is a
 * workspace a kernel can write to, so any name in it may be a planted link:
 * the directory is opened without following a link, the file is created with
 * O_CREAT|O_EXCL|O_NOFOLLOW relative to it (an existing name, link or not, is
 * never opened; the next free name is used), and the copy stops at the cap.
 */
import { constants } from "node:fs";
import { mkdir, open, unlink, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { at, codeOf, openRoot } from "@/lib/engines/files/workspace-handles";
import { nameCandidates, safeDownloadName } from "./safe-filename";

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;
const CHUNK = 1 << 20;

export class DownloadTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`larger than the ${Math.round(maxBytes / (1024 * 1024))} MB download limit (ARGUS_BROWSER_MAX_DOWNLOAD_MB)`);
    this.name = "DownloadTooLarge";
  }
}

async function createFresh(dir: FileHandle, suggested: string): Promise<{ out: FileHandle; name: string }> {
  for (const name of nameCandidates(safeDownloadName(suggested))) {
    try {
      return { out: await open(at(dir, name), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o644), name };
    } catch (error) {
      if (codeOf(error) !== "EEXIST") throw error;
    }
  }
  throw new Error("no free file name is left for this download");
}

/** Copies `source` (Playwright's finished file) into `dirPath` under a safe, fresh name. */
export async function saveDownload(dirPath: string, suggested: string, source: string, maxBytes: number): Promise<{ name: string; path: string; bytes: number }> {
  await mkdir(dirPath, { recursive: true });
  const input = await open(source, O_RDONLY | O_NOFOLLOW);
  try {
    if ((await input.stat()).size > maxBytes) throw new DownloadTooLarge(maxBytes);
    const dir = await openRoot(dirPath);
    try {
      const { out, name } = await createFresh(dir, suggested);
      let bytes = 0;
      try {
        const buffer = Buffer.alloc(CHUNK);
        for (;;) {
          const { bytesRead } = await input.read(buffer, 0, CHUNK, bytes);
          if (bytesRead === 0) break;
          bytes += bytesRead;
          if (bytes > maxBytes) throw new DownloadTooLarge(maxBytes);
          await out.write(buffer, 0, bytesRead);
        }
      } catch (error) {
        await out.close();
        await unlink(at(dir, name)).catch(() => undefined);
        throw error;
      }
      await out.close();
      return { name, path: path.join(dirPath, name), bytes };
    } finally {
      await dir.close();
    }
  } finally {
    await input.close();
  }
}
