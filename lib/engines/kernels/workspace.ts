import { lstat, mkdir, readdir, readFile, rename, rm, rmdir, writeFile } from "node:fs/promises";
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
 *
 * The move is several steps (each entry, then the directory), and a server killed between them
 * (kill -9, a crash) left the session's files, its uploads included, in a pool directory nobody
 * would look in: the next kernel got an empty workspace, and a resumed run's first cell read no
 * image (OpenCV then crashed the kernel). So the move is journalled: `<sessions>/_adopting/<session
 * id>` names the directory the files are going into until they are all there, and the next
 * adoption for the session first takes back what an interrupted one left there.
 */
export async function adoptWorkspace(kernelDir: string, sessionDir: string): Promise<void> {
  const journal = adoptionJournal(sessionDir);
  await takeBackInterrupted(journal, kernelDir);
  await mkdir(path.dirname(journal), { recursive: true });
  await writeFile(journal, kernelDir, { mode: 0o600 });
  const existing = await readdir(sessionDir).catch(() => null);
  if (existing) {
    for (const entry of existing) await rename(path.join(sessionDir, entry), path.join(kernelDir, entry));
    await rmdir(sessionDir);
  }
  await mkdir(path.dirname(sessionDir), { recursive: true });
  await rename(kernelDir, sessionDir);
  await rm(journal, { force: true });
}

/** Where the adoption of a session's workspace is journalled (beside `_pool`, in the sessions root). */
export function adoptionJournal(sessionDir: string): string {
  return path.join(path.dirname(sessionDir), "_adopting", path.basename(sessionDir));
}

/**
 * Moves into `kernelDir` what an interrupted adoption left in the directory its journal names.
 * Only a directory beside `kernelDir` (in `_pool`) is taken from, and only its own entries, by
 * rename: nothing a kernel wrote there is followed.
 */
async function takeBackInterrupted(journal: string, kernelDir: string): Promise<void> {
  const left = await readFile(journal, "utf8").catch(() => null);
  if (left === null) return;
  const stranded = path.resolve(left.trim());
  if (stranded !== path.resolve(kernelDir) && path.dirname(stranded) === path.dirname(path.resolve(kernelDir))) {
    const st = await lstat(stranded).catch(() => null);
    if (st?.isDirectory()) {
      for (const entry of await readdir(stranded)) await rename(path.join(stranded, entry), path.join(kernelDir, entry));
      await rmdir(stranded);
    }
  }
  await rm(journal, { force: true });
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
