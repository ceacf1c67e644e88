import { createHash, randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * Content-addressed file store: the name of a blob is the SHA-256 of its bytes,
 * so the same upload is stored once however often it arrives, and nothing a
 * person names can steer where bytes land on disk.
 */
export class BlobStore {
  constructor(readonly root: string) {
    mkdirSync(root, { recursive: true });
  }

  static hash(bytes: Uint8Array): string {
    return createHash("sha256").update(bytes).digest("hex");
  }

  pathOf(sha256: string): string {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`not a sha256: ${sha256}`);
    return path.join(this.root, sha256.slice(0, 2), sha256.slice(2));
  }

  /** Stores bytes if not already present; writes via rename so a crash never leaves half a blob. */
  async put(bytes: Uint8Array): Promise<{ sha256: string; created: boolean }> {
    const sha256 = BlobStore.hash(bytes);
    const target = this.pathOf(sha256);
    if (await this.has(sha256)) return { sha256, created: false };
    mkdirSync(path.dirname(target), { recursive: true });
    const tmp = `${target}.${randomBytes(6).toString("hex")}.tmp`;
    await writeFile(tmp, bytes, { mode: 0o644 });
    await rename(tmp, target);
    return { sha256, created: true };
  }

  async has(sha256: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(sha256))).isFile();
    } catch {
      return false;
    }
  }

  read(sha256: string): Promise<Buffer> {
    return readFile(this.pathOf(sha256));
  }

  async remove(sha256: string): Promise<void> {
    await rm(this.pathOf(sha256), { force: true });
  }
}
