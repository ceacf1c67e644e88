/**
 * Upload file names come from the client, so they are treated as hostile text:
 * they end up in the workspace listing, in paths the kernel sees, and in the
 * chat. We keep the person's own name when it is safe and refuse it otherwise,
 * rather than silently rewriting it into something they did not choose.
 */
import { ArgusError } from "@/lib/foundation/errors";

const MAX_NAME_LENGTH = 200;

// C0 controls, DEL and C1 controls, plus the bidirectional overrides and
// isolates that can make "gpj.exe" display as "exe.jpg".
const FORBIDDEN_CHAR = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

function refuse(message: string): never {
  throw new ArgusError("bad_request:upload", message, { field: "file" });
}

function describeCodePoint(char: string): string {
  const hex = (char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");
  return `U+${hex}`;
}

/** Returns the trimmed, NFC-normalised name, or throws bad_request:upload. */
export function cleanUploadName(raw: string): string {
  // NFC first so that "é" typed on macOS (NFD) and elsewhere compare equal.
  const name = raw.normalize("NFC").trim();

  if (name.length === 0) refuse("The file has no name.");

  // Count code points, not UTF-16 units, so emoji are not counted twice.
  const length = [...name].length;
  if (length > MAX_NAME_LENGTH) {
    refuse(`The file name is ${length} characters long; the limit is ${MAX_NAME_LENGTH}.`);
  }

  if (name.includes("/") || name.includes("\\")) {
    refuse(`The file name "${name}" contains a slash; send the file on its own, not a path to it.`);
  }

  const forbidden = FORBIDDEN_CHAR.exec(name);
  if (forbidden) {
    // Do not echo the name: it contains the very character that is unsafe to show.
    refuse(
      `The file name contains an invisible control character (${describeCodePoint(forbidden[0])}); ` +
        "rename the file and try again.",
    );
  }

  if (name === "." || name.startsWith("..")) {
    refuse(`The file name "${name}" is not allowed: a name cannot be "." or start with "..".`);
  }

  return name;
}

/** Splits "photo.final.png" into "photo.final" and ".png"; ".env" has no extension. */
function splitExtension(name: string): { stem: string; ext: string } {
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return { stem: name, ext: "" };
  return { stem: name.slice(0, dot), ext: name.slice(dot) };
}

/**
 * Returns `name` if the workspace does not have it yet, otherwise the first
 * free "stem-1.ext", "stem-2.ext", … so an upload never overwrites a file.
 */
export function uniqueName(name: string, taken: Set<string>): string {
  if (!taken.has(name)) return name;
  const { stem, ext } = splitExtension(name);
  for (let n = 1; ; n += 1) {
    const suffix = `-${n}${ext}`;
    // A name already at the length limit must still fit once the suffix is added.
    const room = MAX_NAME_LENGTH - [...suffix].length;
    const candidate = `${[...stem].slice(0, Math.max(room, 1)).join("")}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
