import { randomBytes } from "node:crypto";
import { open, readdir, rename, unlink, type FileHandle } from "node:fs/promises";
import { at, codeOf, explain, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_RDONLY, O_WRONLY, openContainingDir, openRegular, openRoot } from "./workspace-handles";
import { workspaceName, WorkspacePathError } from "./workspace-path";

/**
 * The one way the server touches a workspace a kernel can write to: reading
 * and writing files here, the path rules in workspace-path.ts, descriptor-based
 * opening in workspace-handles.ts, removal and disk usage in workspace-tree.ts.
 *
 * Everything inside a workspace is attacker-controlled: a cell can replace any
 * name by a symlink (to `argus.db`, to another session), a FIFO or a directory,
 * at any moment, in a loop. So the server never resolves a kernel's path by
 * name: it opens the workspace directory once, then each component relative to
 * the descriptor it already holds, with O_NOFOLLOW, and reads or writes only
 * through what it opened (Linux's `/proc/self/fd/<fd>/<name>` gives openat
 * semantics to Node, which has no openat). What it opened is checked with
 * fstat — a regular file, of bounded size — after opening, so a swap between
 * a check and a use changes nothing. Writes go to a fresh exclusive-create
 * temporary file that is then renamed over the name (rename replaces a link,
 * it never follows it). Errors name the path the kernel gave, never a host path.
 */

/** Reads a kernel-named file from its workspace: a regular file, reached without links, of at most `maxBytes`. */
export async function readWorkspaceFile(root: string, relative: string, options: { maxBytes: number }): Promise<Buffer> {
  const { file, size } = await openRegular(root, relative);
  try {
    if (size > options.maxBytes) {
      throw new WorkspacePathError(`${JSON.stringify(relative.slice(0, 120))} is too large (${Math.ceil(size / 1e6)} MB; the limit is ${Math.floor(options.maxBytes / 1e6)} MB).`);
    }
    // Read from the descriptor, bounded: the file may still grow after fstat.
    const buffer = Buffer.alloc(size);
    let filled = 0;
    while (filled < size) {
      const { bytesRead } = await file.read(buffer, filled, size - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } finally {
    await file.close();
  }
}

/**
 * Removes a kernel-named file from its workspace, if it is there. Only the
 * name is removed (unlink never follows a link), and the directories on the
 * way are opened without following links, so nothing outside is touched.
 */
export async function removeWorkspaceFile(root: string, relative: string): Promise<void> {
  const { dir, name } = await openContainingDir(root, relative);
  try {
    await unlink(at(dir, name));
  } catch (error) {
    if (codeOf(error) !== "ENOENT") throw explain(error, JSON.stringify(relative.slice(0, 120)));
  } finally {
    await dir.close();
  }
}

/** Names of files still being written (copies skip them: they may be half written). */
const TEMP_PREFIX = ".argus-write-";

/** Creates an exclusive temporary file in `dir`, fills it by `fill`, and renames it over `name`. */
async function replaceInDir(dir: FileHandle, name: string, fill: (out: FileHandle) => Promise<void>): Promise<void> {
  const temp = `${TEMP_PREFIX}${randomBytes(8).toString("hex")}`;
  const out = await open(at(dir, temp), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o644);
  try {
    await fill(out);
  } catch (error) {
    await out.close();
    await unlink(at(dir, temp)).catch(() => undefined);
    throw error;
  }
  await out.close();
  try {
    await rename(at(dir, temp), at(dir, name));
  } catch (error) {
    await unlink(at(dir, temp)).catch(() => undefined);
    throw explain(error, JSON.stringify(name));
  }
}

/** Writes bytes as one file directly in the workspace, replacing whatever the name held (a link included) without following it. */
export async function writeWorkspaceFile(root: string, name: string, bytes: Uint8Array): Promise<void> {
  const safe = workspaceName(name);
  const dir = await openRoot(root);
  try {
    await replaceInDir(dir, safe, async (out) => {
      await out.writeFile(bytes);
    });
  } finally {
    await dir.close();
  }
}

/** Copies from one descriptor to another in chunks, at most `maxBytes` (the source may grow while it is read). */
async function copyBounded(source: FileHandle, out: FileHandle, maxBytes: number): Promise<void> {
  const chunk = Buffer.alloc(1 << 20);
  let position = 0;
  while (position < maxBytes) {
    const { bytesRead } = await source.read(chunk, 0, Math.min(chunk.length, maxBytes - position), position);
    if (bytesRead === 0) return;
    await out.write(chunk, 0, bytesRead);
    position += bytesRead;
  }
}

/**
 * Copies the regular files at the top of one workspace into another (the
 * coder's isolated kernel gets copies of the session's files). Links, FIFOs,
 * devices and directories are skipped; each file is read through the
 * descriptor opened without following links, so a name swapped for a link
 * after the listing copies nothing. Returns the names copied.
 */
export async function copyWorkspaceFiles(fromRoot: string, toRoot: string, options: { maxBytesPerFile: number }): Promise<string[]> {
  let from: FileHandle;
  try {
    from = await openRoot(fromRoot);
  } catch {
    return [];
  }
  const to = await openRoot(toRoot);
  const copied: string[] = [];
  try {
    const entries = await readdir(`/proc/self/fd/${from.fd}`, { withFileTypes: true });
    for (const entry of entries) {
      if (!entry.isFile() || entry.name.startsWith(TEMP_PREFIX)) continue;
      let source: FileHandle;
      try {
        source = await open(at(from, entry.name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
      } catch {
        continue; // gone or swapped for a link since the listing
      }
      try {
        const stat = await source.stat();
        if (!stat.isFile() || stat.size > options.maxBytesPerFile) continue;
        await replaceInDir(to, entry.name, (out) => copyBounded(source, out, options.maxBytesPerFile));
        copied.push(entry.name);
      } finally {
        await source.close();
      }
    }
  } finally {
    await from.close();
    await to.close();
  }
  return copied;
}
