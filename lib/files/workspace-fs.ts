import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { lstat, open, readdir, rename, rmdir, unlink, type FileHandle } from "node:fs/promises";

/**
 * The one way the server touches a workspace a kernel can write to.
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

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_DIRECTORY, O_NONBLOCK } = constants;

/** A refusal worded for the kernel and the person: it names the kernel's own relative path only. */
export class WorkspacePathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WorkspacePathError";
  }
}

const MAX_PATH_CHARS = 500;
const MAX_DEPTH = 16;

/**
 * Pure: the components of a kernel-given path relative to its workspace, or a
 * refusal. Absolute paths, `..`, empty or `.` components and control characters
 * are refused outright rather than normalised, so no spelling can reach
 * outside. A leading `./` and `/workspace/` (the kernel's own view) are accepted.
 */
export function workspaceParts(relative: string): string[] {
  const shown = JSON.stringify(relative.slice(0, 120));
  if (relative.length === 0 || relative.length > MAX_PATH_CHARS) throw new WorkspacePathError(`${shown} is not a usable file path.`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(relative)) throw new WorkspacePathError(`${shown} contains control characters.`);
  let rest = relative;
  if (rest.startsWith("/workspace/")) rest = rest.slice("/workspace/".length);
  else if (rest.startsWith("/")) throw new WorkspacePathError(`${shown} is outside the workspace: give a path relative to it, like "image.png".`);
  while (rest.startsWith("./")) rest = rest.slice(2);
  const parts = rest.split("/");
  if (parts.length > MAX_DEPTH) throw new WorkspacePathError(`${shown} is nested too deeply.`);
  for (const part of parts) {
    if (part === "" || part === "." || part === "..") {
      throw new WorkspacePathError(`${shown} is not allowed: paths must stay inside the workspace (no "..", no empty parts).`);
    }
  }
  return parts;
}

/** A name for one file directly in the workspace (uploads): no directories at all. */
export function workspaceName(name: string): string {
  const parts = workspaceParts(name);
  if (parts.length !== 1) throw new WorkspacePathError(`${JSON.stringify(name)} must be a plain file name.`);
  return parts[0]!;
}

const at = (dir: FileHandle, name: string) => `/proc/self/fd/${dir.fd}/${name}`;

function explain(error: unknown, shown: string): WorkspacePathError {
  const code = (error as NodeJS.ErrnoException)?.code;
  switch (code) {
    case "ENOENT":
      return new WorkspacePathError(`There is no file ${shown} in the workspace.`);
    case "ELOOP":
    case "EMLINK":
      return new WorkspacePathError(`${shown} is a symbolic link; Argus reads only regular files in the workspace.`);
    case "ENOTDIR":
      return new WorkspacePathError(`${shown} is not a file path in the workspace (a part of it is not a directory, or a link).`);
    case "EISDIR":
      return new WorkspacePathError(`${shown} is a directory, not a file.`);
    case "EACCES":
    case "EPERM":
      return new WorkspacePathError(`${shown} can't be read.`);
    default:
      return new WorkspacePathError(`${shown} could not be opened (${code ?? "error"}).`);
  }
}

/** Opens the workspace directory itself; the server made it, but it must not be a link either. */
function openRoot(root: string): Promise<FileHandle> {
  return open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
}

/** Walks the directory components from the root without following any link; returns the last directory. */
async function openParent(root: string, parts: string[], shown: string): Promise<FileHandle> {
  let dir = await openRoot(root).catch((e: unknown) => {
    throw explain(e, "the workspace");
  });
  for (const part of parts.slice(0, -1)) {
    let next: FileHandle;
    try {
      next = await open(at(dir, part), O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    } catch (error) {
      await dir.close();
      throw explain(error, shown);
    }
    await dir.close();
    dir = next;
  }
  return dir;
}

/**
 * Opens a regular file for reading, relative to the workspace, following no
 * link on the way. O_NONBLOCK so that a FIFO planted under the name cannot
 * hang the server in open(); it is then refused by the fstat check.
 */
async function openRegular(root: string, relative: string): Promise<{ file: FileHandle; size: number }> {
  const parts = workspaceParts(relative);
  const shown = JSON.stringify(relative.slice(0, 120));
  const dir = await openParent(root, parts, shown);
  let file: FileHandle;
  try {
    file = await open(at(dir, parts[parts.length - 1]!), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    throw explain(error, shown);
  } finally {
    await dir.close();
  }
  const stat = await file.stat();
  if (!stat.isFile()) {
    await file.close();
    throw new WorkspacePathError(`${shown} is not a regular file.`);
  }
  return { file, size: stat.size };
}

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

/** Deeper than this, a tree is refused rather than holding one descriptor per level. */
const MAX_REMOVE_DEPTH = 256;

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException)?.code;

/** Empties the directory open as `dir`, reaching each entry through `dir` and following no link. */
async function emptyDirectory(dir: FileHandle, depth: number): Promise<void> {
  if (depth > MAX_REMOVE_DEPTH) throw new WorkspacePathError("The workspace is nested too deeply to remove.");
  for (const name of await readdir(`/proc/self/fd/${dir.fd}`)) {
    const entry = at(dir, name);
    // unlink removes a file, link, FIFO or socket itself (a link's target is
    // untouched); only a directory refuses it.
    try {
      await unlink(entry);
      continue;
    } catch (error) {
      if (codeOf(error) === "ENOENT") continue;
      if (codeOf(error) !== "EISDIR" && codeOf(error) !== "EPERM") throw error;
    }
    let sub: FileHandle;
    try {
      sub = await open(entry, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    } catch (error) {
      if (codeOf(error) === "ENOENT") continue;
      // Swapped for a link (or a file) since the unlink: remove that instead.
      if (codeOf(error) === "ENOTDIR" || codeOf(error) === "ELOOP") {
        await unlink(entry).catch(() => undefined);
        continue;
      }
      throw error;
    }
    try {
      await emptyDirectory(sub, depth + 1);
    } finally {
      await sub.close();
    }
    await rmdir(entry).catch((error: unknown) => {
      if (codeOf(error) !== "ENOENT") throw error;
    });
  }
}

/**
 * Removes a workspace and everything in it without following any link, even
 * one swapped in for a directory while the removal runs (a by-name recursive
 * rm lists `a/` and then deletes `a/x`, resolving `a` again — a link by then).
 * A workspace that does not exist is already removed.
 */
export async function removeWorkspaceTree(root: string): Promise<void> {
  let dir: FileHandle;
  try {
    dir = await openRoot(root);
  } catch (error) {
    if (codeOf(error) === "ENOENT") return;
    if (codeOf(error) === "ENOTDIR" || codeOf(error) === "ELOOP") return unlink(root);
    throw error;
  }
  try {
    await emptyDirectory(dir, 0);
  } finally {
    await dir.close();
  }
  await rmdir(root).catch((error: unknown) => {
    if (codeOf(error) !== "ENOENT") throw error;
  });
}

export interface WorkspaceUsage {
  /** Disk space the workspace's files take (allocated blocks, so sparse files count what they use). */
  bytes: number;
  entries: number;
  /** The walk stopped at `maxEntries` (or `maxDepth`): the real usage is at least this. */
  partial: boolean;
}

/**
 * How much disk a workspace takes, walked without following any link: each
 * directory is opened relative to its parent with O_NOFOLLOW and each entry
 * is lstat'ed through that descriptor, so a link the kernel plants (to `/`, to
 * the data directory) counts as the link alone. Bounded by `maxEntries`, since
 * a cell can create millions of empty files.
 */
export async function workspaceUsage(root: string, options: { maxEntries?: number } = {}): Promise<WorkspaceUsage> {
  const usage: WorkspaceUsage = { bytes: 0, entries: 0, partial: false };
  const maxEntries = options.maxEntries ?? 200_000;
  let dir: FileHandle;
  try {
    dir = await openRoot(root);
  } catch (error) {
    if (codeOf(error) === "ENOENT") return usage;
    throw error;
  }
  try {
    await addUsage(dir, 0, usage, maxEntries);
  } finally {
    await dir.close();
  }
  return usage;
}

async function addUsage(dir: FileHandle, depth: number, usage: WorkspaceUsage, maxEntries: number): Promise<void> {
  if (depth > MAX_REMOVE_DEPTH) {
    usage.partial = true;
    return;
  }
  let names: string[];
  try {
    names = await readdir(`/proc/self/fd/${dir.fd}`);
  } catch (error) {
    if (codeOf(error) === "ENOENT") return;
    throw error;
  }
  for (const name of names) {
    if (usage.entries >= maxEntries) {
      usage.partial = true;
      return;
    }
    usage.entries++;
    let stats: Awaited<ReturnType<typeof lstat>>;
    try {
      stats = await lstat(at(dir, name));
    } catch (error) {
      if (codeOf(error) === "ENOENT") continue;
      throw error;
    }
    usage.bytes += stats.blocks * 512;
    if (!stats.isDirectory()) continue;
    let sub: FileHandle;
    try {
      sub = await open(at(dir, name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    } catch (error) {
      // Gone or swapped for a link or a file since the lstat: counted as it was.
      if (codeOf(error) === "ENOENT" || codeOf(error) === "ENOTDIR" || codeOf(error) === "ELOOP") continue;
      throw error;
    }
    try {
      await addUsage(sub, depth + 1, usage, maxEntries);
    } finally {
      await sub.close();
    }
  }
}
