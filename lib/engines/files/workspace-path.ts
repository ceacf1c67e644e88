/**
 * Which kernel-given paths name something inside a workspace. Pure: no file
 * system access, so the rules are unit-tested on their own.
 */

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
