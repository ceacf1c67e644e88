import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import path from "node:path";
import type { BlobStore } from "@/lib/engines/db/blobs";
import type { NewBatchItem } from "@/lib/engines/db/batches";
import type { Db } from "@/lib/engines/db/database";
import { filesOfSession } from "@/lib/engines/db/files";
import { ArgusError, isArgusError } from "@/lib/foundation/errors";
import { cleanUploadName } from "@/lib/engines/files/filename";
import { formatBytes, processUpload } from "@/lib/engines/files/process-upload";
import type { ArgusConfig } from "@/lib/foundation/config";
import type { Semaphore } from "./semaphore";
import { DEFAULT_ZIP_LIMITS, readZip } from "./zip-input";

export interface IntakeDeps {
  db: Db;
  blobs: BlobStore;
  config: Pick<ArgusConfig, "limits" | "batches" | "python" | "tmpDir">;
  /** Zips being unpacked at once, server-wide (ARGUS_BATCH_ZIP_UNPACKS): past it a request gets 429. */
  zipUnpacks: Semaphore;
}

/**
 * A file as it arrived in the request: a loose file (a folder's) or a zip to unpack, in memory or
 * spooled to disk by the form reader (`file`, `size`), which the caller removes afterwards.
 */
export type ArrivedFile = { filename: string; bytes: Uint8Array } | { filename: string; file: string; size: number };

/** What a file of the batch is before validation: in memory, spooled, or already refused. */
type Pending = { name: string; bytes: Uint8Array } | { name: string; file: string; size: number } | { name: string; refused: string };

export type BatchInput = { kind: "uploads"; uploadIds: readonly string[] } | { kind: "files"; files: readonly ArrivedFile[]; zips: readonly ArrivedFile[] };

function tooMany(n: number, max: number): ArgusError {
  return new ArgusError("payload_too_large:upload", `The batch has ${n} files; a batch takes at most ${max} (ARGUS_BATCH_MAX_FILES).`, { field: "files" });
}

/**
 * Turns what a person picked into batch items. Session uploads were validated
 * when they arrived; anything else is validated here like any upload, and a
 * file that fails becomes a failed item with its reason — it never stops the
 * batch. A zip that attacks the reader refuses the whole request (zip-input.ts).
 */
export async function intakeItems(deps: IntakeDeps, sessionId: string, input: BatchInput): Promise<NewBatchItem[]> {
  const max = deps.config.batches.maxFiles;
  if (input.kind === "uploads") {
    if (input.uploadIds.length > max) throw tooMany(input.uploadIds.length, max);
    const uploads = new Map((await filesOfSession(deps.db, sessionId)).filter((f) => f.origin === "upload").map((f) => [f.id, f]));
    return input.uploadIds.map((id, i) => {
      const f = uploads.get(id);
      if (!f) throw new ArgusError("not_found:upload", "One of the picked uploads is not in this session (it may have been deleted).", { field: `uploadIds.${i}` });
      return { fileName: f.name, uploadId: f.id, blobSha256: null };
    });
  }
  const arrived: Pending[] = input.files.map((f) => ({ ...f, name: f.filename }));
  if (input.zips.length === 0) return validatedAll(deps, arrived, max);
  const release = deps.zipUnpacks.tryAcquire();
  if (!release) {
    throw new ArgusError("rate_limited:upload", "Argus is unpacking as many zips as it may at once (ARGUS_BATCH_ZIP_UNPACKS); try again in a few seconds.", {
      field: "zip",
      retryAfterSeconds: 5,
    });
  }
  // Entries go to disk, one file each, and are read back one at a time: memory holds one entry.
  let spool: string | null = null;
  try {
    await mkdir(deps.config.tmpDir, { recursive: true });
    spool = await mkdtemp(path.join(deps.config.tmpDir, "batch-zip-"));
    // One inflated-bytes budget for all the request's zips (zip-input.ts).
    let inflated = 0;
    for (const zip of input.zips) {
      if (arrived.length > max) break;
      const maxEntryBytes = deps.config.limits.maxUploadBytes;
      const source = "file" in zip ? zip.file : Buffer.from(zip.bytes.buffer, zip.bytes.byteOffset, zip.bytes.byteLength);
      const entries = await readZip(source, { ...DEFAULT_ZIP_LIMITS, maxEntries: max, maxEntryBytes }, spool, inflated);
      for (const e of entries) {
        // An entry refused for its size was inflated past the upload limit before it was stopped.
        inflated += "file" in e ? e.size : maxEntryBytes;
        arrived.push("file" in e ? { name: e.path, file: e.file, size: e.size } : { name: e.path, refused: e.refused });
      }
    }
    return await validatedAll(deps, arrived, max);
  } finally {
    release();
    if (spool) await rm(spool, { recursive: true, force: true });
  }
}

async function validatedAll(deps: IntakeDeps, arrived: readonly Pending[], max: number): Promise<NewBatchItem[]> {
  if (arrived.length > max) throw tooMany(arrived.length, max);
  if (arrived.length === 0) throw new ArgusError("bad_request:upload", "The batch has no files: pick uploads, or send files or a zip.", { field: "files" });
  const items: NewBatchItem[] = [];
  for (const a of arrived) items.push(await validated(deps, a));
  return items;
}

async function validated(deps: IntakeDeps, a: Pending): Promise<NewBatchItem> {
  // A folder's or zip's path: the person knows the file by its last part.
  const base = path.posix.basename(a.name.replace(/\\/g, "/")) || "file";
  if ("refused" in a) return { fileName: base, uploadId: null, blobSha256: null, failed: a.refused };
  const max = deps.config.limits.maxUploadBytes;
  // A spooled file past the limit is refused by its size, never read into memory.
  if ("file" in a && a.size > max) return { fileName: safeShownName(base), uploadId: null, blobSha256: null, failed: `The file is ${formatBytes(a.size)}; the limit is ${formatBytes(max, Math.floor)}.` };
  try {
    const bytes = "file" in a ? new Uint8Array(await readFile(a.file)) : a.bytes;
    const processed = await processUpload({
      bytes,
      filename: base,
      limits: { maxBytes: deps.config.limits.maxUploadBytes, maxPixels: deps.config.limits.maxImagePixels, maxVideoSeconds: deps.config.limits.maxVideoSeconds },
      python: deps.config.python,
      tmpDir: deps.config.tmpDir,
    });
    const stored = await deps.blobs.put(bytes);
    return { fileName: processed.name, uploadId: null, blobSha256: stored.sha256 };
  } catch (error) {
    if (!isArgusError(error)) throw error;
    return { fileName: safeShownName(base), uploadId: null, blobSha256: null, failed: error.message };
  }
}

/** A name refused by the upload rules is still shown on its row, cleaned where it can be. */
function safeShownName(name: string): string {
  try {
    return cleanUploadName(name);
  } catch {
    return [...name].slice(0, 120).join("");
  }
}
