/**
 * Reads the files out of a zip a person gave a batch, refusing the archives
 * that attack the reader: paths that climb out (`../x.png`) or start at the
 * root, symbolic links, archives inside the archive, encrypted entries, and
 * zip bombs. Bytes are counted as they are inflated — the sizes the zip
 * declares are not trusted — and reading stops at the cap.
 *
 * Each entry is streamed to its own file in a spool directory the caller owns
 * (and removes), never held whole: 500 entries of 1 MiB of zeros pass every
 * ratio check and, held in memory, six such requests took the server to 3 GB.
 *
 * yauzl (pinned) does the parsing; it also checks every entry's inflated
 * size against its header (validateEntrySizes) and refuses bad names.
 */
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { mkdtemp } from "node:fs/promises";
import { join } from "node:path";
import { finished } from "node:stream/promises";
import yauzl from "yauzl";
import { ArgusError } from "@/lib/foundation/errors";

export interface ZipLimits {
  /** Files (not folders) the zip may hold. */
  maxEntries: number;
  /** Inflated bytes of all entries together. */
  maxTotalBytes: number;
  /** Inflated bytes of one entry (the upload limit). */
  maxEntryBytes: number;
  /** Inflated : compressed at most, for entries past RATIO_FLOOR_BYTES. */
  maxRatio: number;
}

/** Small entries may compress well (a flat mask): the ratio is judged only past this size. */
export const RATIO_FLOOR_BYTES = 1024 * 1024;

export const DEFAULT_ZIP_LIMITS: Omit<ZipLimits, "maxEntries" | "maxEntryBytes"> = {
  maxTotalBytes: 1024 * 1024 * 1024,
  // Photos barely compress (JPEG, PNG are compressed already); a bomb inflates ~1000×.
  maxRatio: 100,
};

/** One file of the zip: its name inside the archive, and where its bytes were spooled (or why it was not read). */
export type ZipEntryFile = { path: string; file: string; size: number } | { path: string; refused: string };

const ARCHIVE_EXT = /\.(zip|jar|7z|rar|tar|tgz|gz|bz2|xz|zst|cpio|iso)$/i;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

function refuse(message: string): ArgusError {
  return new ArgusError("bad_request:upload", `The zip was refused: ${message}`, { field: "zip" });
}

/** Magic numbers of archives (zip, gzip, 7z, rar, bzip2, xz, zstd): a nested archive under any name. */
export function looksLikeArchive(head: Uint8Array): boolean {
  const starts = (...sig: number[]) => sig.every((b, i) => head[i] === b);
  return (
    starts(0x50, 0x4b, 0x03, 0x04) ||
    starts(0x50, 0x4b, 0x05, 0x06) ||
    starts(0x1f, 0x8b) ||
    starts(0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c) ||
    starts(0x52, 0x61, 0x72, 0x21) ||
    starts(0x42, 0x5a, 0x68) ||
    starts(0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00) ||
    starts(0x28, 0xb5, 0x2f, 0xfd)
  );
}

/** Folders, macOS resource forks and hidden files are not the person's images. */
function skipped(path: string): boolean {
  return path.endsWith("/") || path.startsWith("__MACOSX/") || path.split("/").some((part) => part.startsWith("."));
}

/** The names yauzl refuses, in the person's words. */
function nameProblem(message: string): string | null {
  if (message.startsWith("invalid relative path")) return `an entry's path climbs out of the archive (${message.slice(message.indexOf(":") + 2)}).`;
  if (message.startsWith("absolute path")) return `an entry has an absolute path (${message.slice(message.indexOf(":") + 2)}).`;
  if (message.startsWith("invalid characters")) return "an entry's name has characters a path cannot have.";
  if (message.startsWith("too many bytes") || message.startsWith("too few bytes")) return "an entry inflates to a different size than its header says (a tampered archive).";
  return null;
}

/**
 * `spentBytes`: what earlier zips of the same request inflated already. The budget holds for the
 * request: each of 25 zips just under it would otherwise make the server hold 25 GB.
 */
export async function readZip(source: Buffer | string, limits: ZipLimits, spoolDir: string, spentBytes = 0): Promise<ZipEntryFile[]> {
  let zip: yauzl.ZipFile;
  const options = { lazyEntries: true, decodeStrings: true, validateEntrySizes: true, strictFileNames: false };
  try {
    // A path: the zip is read from its file (yauzl reads the directory and each entry by offset).
    zip = typeof source === "string" ? await yauzl.openPromise(source, options) : await yauzl.fromBufferPromise(source, options);
  } catch (error) {
    const problem = nameProblem(String((error as Error).message));
    throw refuse(problem ?? "it is not a readable zip archive.");
  }
  if (zip.entryCount > limits.maxEntries * 4 + 100) {
    // Far more entries than the batch may take: not worth walking the directory.
    zip.close();
    throw refuse(`it holds ${zip.entryCount} entries; a batch takes at most ${limits.maxEntries} files.`);
  }
  const out: ZipEntryFile[] = [];
  let total = spentBytes;
  let spoolCount = 0;
  try {
    // A folder of its own: the request's zips share the caller's spool directory.
    const dir = await mkdtemp(join(spoolDir, "zip-"));
    for (;;) {
      const entry = await nextEntry(zip);
      if (!entry) break;
      const path = entry.fileName;
      if (skipped(path)) continue;
      if ((entry.externalFileAttributes >>> 16 & S_IFMT) === S_IFLNK) throw refuse(`${path} is a symbolic link.`);
      if (entry.isEncrypted()) throw refuse(`${path} is encrypted.`);
      if (ARCHIVE_EXT.test(path)) throw refuse(`${path} is an archive inside the archive; unpack it first.`);
      if (out.length >= limits.maxEntries) throw refuse(`it holds more than ${limits.maxEntries} files (ARGUS_BATCH_MAX_FILES).`);
      const file = join(dir, `entry-${String(spoolCount++).padStart(5, "0")}`);
      const read = await readEntry(zip, entry, limits, limits.maxTotalBytes - total, file);
      if ("refused" in read) {
        out.push({ path, refused: read.refused });
        total += read.counted;
        continue;
      }
      if (looksLikeArchive(read.head)) throw refuse(`${path} is an archive inside the archive; unpack it first.`);
      total += read.size;
      out.push({ path, file, size: read.size });
    }
  } finally {
    zip.close();
  }
  return out;
}

function nextEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | null> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      zip.off("entry", onEntry);
      zip.off("end", onEnd);
      zip.off("error", onError);
    };
    const onEntry = (e: yauzl.Entry) => (cleanup(), resolve(e));
    const onEnd = () => (cleanup(), resolve(null));
    const onError = (err: Error) => (cleanup(), reject(refuse(nameProblem(err.message) ?? "it is not a readable zip archive.")));
    zip.once("entry", onEntry);
    zip.once("end", onEnd);
    zip.once("error", onError);
    zip.readEntry();
  });
}

/**
 * Inflates one entry into `file`, counting real bytes: past the total budget or
 * the ratio the whole zip is refused (a bomb); past the per-file limit only this
 * entry is (its row fails), and reading it stops there either way. Only the
 * chunk in hand is in memory; its first bytes are kept to recognise an archive.
 */
async function readEntry(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  limits: ZipLimits,
  budget: number,
  file: string,
): Promise<{ size: number; head: Uint8Array } | { refused: string; counted: number }> {
  let stream: NodeJS.ReadableStream & { destroy(): void };
  try {
    stream = (await zip.openReadStreamPromise(entry)) as typeof stream;
  } catch (error) {
    throw refuse(nameProblem(String((error as Error).message)) ?? `${entry.fileName} could not be read (${String((error as Error).message).slice(0, 120)}).`);
  }
  const out = createWriteStream(file, { flags: "wx", mode: 0o600 });
  // Heard here (a full disk): unheard, a write stream's error would end the server.
  let writeError: Error | null = null;
  out.on("error", (error) => (writeError ??= error));
  let head = Buffer.alloc(0);
  let size = 0;
  const compressed = Math.max(1, entry.compressedSize);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.byteLength;
      if (size > budget) throw refuse(`it inflates to more than ${Math.round(limits.maxTotalBytes / 1024 / 1024)} MB (a zip bomb?).`);
      if (size > RATIO_FLOOR_BYTES && size / compressed > limits.maxRatio) {
        throw refuse(`${entry.fileName} inflates more than ${limits.maxRatio}× its compressed size (a zip bomb?).`);
      }
      if (size > limits.maxEntryBytes) {
        return { refused: `The file is larger than the ${Math.round(limits.maxEntryBytes / 1024 / 1024)} MB upload limit.`, counted: size };
      }
      if (head.byteLength < 8) head = Buffer.concat([head, chunk.subarray(0, 8 - head.byteLength)]);
      // Wait for the disk when it is behind, so inflated bytes never pile up in memory.
      if (!out.write(chunk)) await once(out, "drain");
    }
  } catch (error) {
    if (error instanceof ArgusError) throw error;
    throw refuse(nameProblem(String((error as Error).message)) ?? `${entry.fileName} could not be inflated (${String((error as Error).message).slice(0, 120)}).`);
  } finally {
    stream.destroy();
    out.end();
    await finished(out).catch(() => undefined);
  }
  if (writeError) throw writeError;
  return { size, head };
}
