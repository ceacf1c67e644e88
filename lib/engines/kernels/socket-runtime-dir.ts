import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Where jupyter-server keeps connection files and the kernels' ZeroMQ ipc sockets.
 *
 * A Unix socket's path holds at most 107 bytes (sun_path), and each kernel's sockets are named
 * `<runtime>/kernel-<uuid>-ipc-<port>`: with Argus's data directory a little deep (a checkout in
 * a long home path, a test's data dir inside a worktree) every kernel start failed with ZeroMQ's
 * "File name too long". The runtime directory stays inside the data directory when the longest
 * socket name fits there; otherwise it is a fresh private directory in the system's temp dir
 * (mkdtemp: random name, mode 0700, so no other local user can prepare it in advance).
 *
 * A server killed with SIGKILL never removes that temp directory; its path is noted beside the
 * preferred one (`<preferred>.elsewhere`), so the next launch from the same launch directory (the
 * same instance restarted) removes it first, once it has checked that it is one of ours.
 */
export const SOCKET_PATH_MAX = 107;
/** `/kernel-<36-char uuid>-ipc-<5-digit port>`: the longest socket name jupyter_client makes. */
const LONGEST_SOCKET_NAME = "/kernel-00000000-0000-0000-0000-000000000000-ipc-65535".length;

/** Whether every kernel socket jupyter-server will make in `dir` fits a Unix socket path. */
export function socketsFitIn(dir: string): boolean {
  return Buffer.byteLength(dir) + LONGEST_SOCKET_NAME <= SOCKET_PATH_MAX;
}

/** The runtime directory one jupyter-server launch uses, and how to remove it if it is a temporary one. */
export function socketRuntimeDir(preferred: string, tmp = os.tmpdir()): { dir: string; cleanup: () => void } {
  if (socketsFitIn(preferred)) return { dir: preferred, cleanup: () => undefined };
  const note = `${preferred}.elsewhere`;
  removeLeftover(note, tmp);
  const dir = mkdtempSync(path.join(tmp, "argus-jupyter-"));
  if (!socketsFitIn(dir)) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(
      `Jupyter's sockets need a short directory: ${preferred} and the temp dir ${tmp} are both too deep for a Unix socket path (${SOCKET_PATH_MAX} bytes). Set ARGUS_DATA_DIR or TMPDIR to a shorter path.`,
    );
  }
  mkdirSync(path.dirname(note), { recursive: true });
  writeFileSync(note, dir, { mode: 0o600 });
  return {
    dir,
    cleanup: () => {
      rmSync(dir, { recursive: true, force: true });
      rmSync(note, { force: true });
    },
  };
}

const TEMP_NAME = /^argus-jupyter-[A-Za-z0-9]{6}$/;

/**
 * Removes the temp runtime directory an earlier launch noted, if it is still there and is what
 * mkdtemp made for this user: a directory (not a link) directly in `tmp`, named as ours.
 */
function removeLeftover(note: string, tmp: string): void {
  let noted: string;
  try {
    noted = readFileSync(note, "utf8").trim();
  } catch {
    return;
  }
  rmSync(note, { force: true });
  if (path.dirname(noted) !== path.resolve(tmp) || !TEMP_NAME.test(path.basename(noted))) return;
  try {
    const st = lstatSync(noted);
    if (!st.isDirectory() || st.uid !== process.getuid?.()) return;
  } catch {
    return;
  }
  rmSync(noted, { recursive: true, force: true });
}
