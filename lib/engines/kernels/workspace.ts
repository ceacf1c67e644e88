import { mkdir, readdir, rename, rmdir } from "node:fs/promises";
import path from "node:path";
import { copyWorkspaceFiles as copyFilesBetweenWorkspaces } from "@/lib/engines/files/workspace-fs";
import { removeWorkspaceTree } from "@/lib/engines/files/workspace-tree";

/**
 * Pooled kernels start before anyone needs them, each sandboxed to its own
 * empty directory (the sandbox binds that directory, and a bind mount follows
 * the directory through a rename). When a session takes one, its workspace is
 * moved into that directory and the directory takes the session's name, so the
 * kernel sees exactly the session's files at `/workspace`. The caller holds
 * the session's workspace lock.
 */
export async function adoptWorkspace(kernelDir: string, sessionDir: string): Promise<void> {
  const existing = await readdir(sessionDir).catch(() => null);
  if (existing) {
    for (const entry of existing) await rename(path.join(sessionDir, entry), path.join(kernelDir, entry));
    await rmdir(sessionDir);
  }
  await mkdir(path.dirname(sessionDir), { recursive: true });
  await rename(kernelDir, sessionDir);
}

/** Largest file the coder's isolated kernel gets a copy of. */
const MAX_COPIED_FILE_BYTES = 512 * 1024 * 1024;

/**
 * Copies the regular files at the top of a session's workspace (uploads and
 * what the planner saved) into an isolated kernel's directory: the coder's
 * tests read the same images, but can't change the planner's notebook files.
 * The session's kernel controls every name there, so this goes through
 * workspace-fs, which follows no link.
 */
export function copyWorkspaceFiles(fromDir: string, toDir: string): Promise<string[]> {
  return copyFilesBetweenWorkspaces(fromDir, toDir, { maxBytesPerFile: MAX_COPIED_FILE_BYTES });
}

/** Removes a kernel's directory; its kernel wrote it, so no link in it is followed. */
export function removeDir(dir: string): Promise<void> {
  return removeWorkspaceTree(dir);
}
