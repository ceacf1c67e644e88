/**
 * Opening things inside a workspace by descriptor, never by a name resolved
 * twice: each component is opened relative to the directory already held,
 * with O_NOFOLLOW (see workspace-fs.ts for why).
 */
import { constants } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { workspaceParts, WorkspacePathError } from "./workspace-path";

export const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_DIRECTORY, O_NONBLOCK } = constants;

export const codeOf = (error: unknown) => (error as NodeJS.ErrnoException)?.code;

export const at = (dir: FileHandle, name: string) => `/proc/self/fd/${dir.fd}/${name}`;

export function explain(error: unknown, shown: string): WorkspacePathError {
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
export function openRoot(root: string): Promise<FileHandle> {
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

/** The directory holding a kernel-named path, opened without following links, and the last component's name. */
export async function openContainingDir(root: string, relative: string): Promise<{ dir: FileHandle; name: string }> {
  const parts = workspaceParts(relative);
  const dir = await openParent(root, parts, JSON.stringify(relative.slice(0, 120)));
  return { dir, name: parts[parts.length - 1]! };
}

/**
 * Opens a regular file for reading, relative to the workspace, following no
 * link on the way. O_NONBLOCK so that a FIFO planted under the name cannot
 * hang the server in open(); it is then refused by the fstat check.
 */
export async function openRegular(root: string, relative: string): Promise<{ file: FileHandle; size: number }> {
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
