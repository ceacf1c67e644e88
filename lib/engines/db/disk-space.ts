import { statfsSync } from "node:fs";
import { ArgusError, type ErrorSurface } from "@/lib/foundation/errors";

/** The chat's note on a run the full disk cut off. */
export const DISK_FULL_RUN_ENDED =
  "The server's disk filled up during this run, so it had to stop: its last step could not be saved. Everything before it is kept; free some space and send your message again.";

/** What a person reads when a write failed because the disk is full. */
export const DISK_FULL_MESSAGE =
  "The server's disk is full, so this could not be saved. Nothing saved before was lost; try again once space has been freed.";

/**
 * Whether an error means the storage is out of room: SQLite's SQLITE_FULL, or
 * a file system's ENOSPC / EDQUOT, also when wrapped as another error's cause.
 */
export function isDiskFull(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === "SQLITE_FULL" || code === "ENOSPC" || code === "EDQUOT") return true;
  }
  return false;
}

/** The readable refusal for `free` bytes left when `min` must stay free. */
export function lowDiskMessage(freeBytes: number, minBytes: number): string {
  const mb = (n: number) => `${Math.max(0, Math.floor(n / (1024 * 1024)))} MB`;
  return `The server is almost out of disk space (${mb(freeBytes)} free, ${mb(minBytes)} needed to start new work), so nothing new can be saved right now. Your chats are safe; try again once space has been freed.`;
}

/** The disk-full answer for a request, with its 507 status. */
export function diskFullError(surface: ErrorSurface, cause?: unknown): ArgusError {
  return new ArgusError(`insufficient_storage:${surface}`, DISK_FULL_MESSAGE, cause === undefined ? undefined : { cause });
}

/**
 * Watches the free space of the data directory. New work (a session, an
 * upload, a run) is refused while less than `minBytes` is free, so it fails
 * with a clear answer up front instead of half-way through with a lost write.
 */
export class DiskSpace {
  constructor(
    private readonly dir: string,
    readonly minBytes: number,
  ) {}

  /** Bytes an unprivileged writer can still use, or null if the file system cannot say. */
  freeBytes(): number | null {
    try {
      const s = statfsSync(this.dir);
      return Number(s.bavail) * Number(s.bsize);
    } catch {
      return null;
    }
  }

  low(): boolean {
    const free = this.freeBytes();
    return free !== null && free < this.minBytes;
  }

  /** Throws a readable 507 when the disk is below the minimum. */
  assertRoom(surface: ErrorSurface): void {
    const free = this.freeBytes();
    if (free !== null && free < this.minBytes) {
      throw new ArgusError(`insufficient_storage:${surface}`, lowDiskMessage(free, this.minBytes));
    }
  }
}
