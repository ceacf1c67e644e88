/**
 * Whole-workspace walks, removal and disk usage, that follow no link even
 * while the kernel swaps names under them (see workspace-fs.ts for why).
 */
import { lstat, open, readdir, rmdir, unlink, type FileHandle } from "node:fs/promises";
import { at, codeOf, O_DIRECTORY, O_NOFOLLOW, O_RDONLY, openRoot } from "./workspace-handles";
import { WorkspacePathError } from "./workspace-path";

/** Deeper than this, a tree is refused rather than holding one descriptor per level. */
const MAX_REMOVE_DEPTH = 256;

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
