import type { FileKind } from "@/lib/protocol/files";
import type { Db } from "./database";

export interface FileRow {
  id: string;
  sessionId: string;
  origin: "upload" | "generated";
  name: string;
  kind: FileKind;
  mime: string;
  size: number;
  sha256: string;
  width: number | null;
  height: number | null;
  durationSec: number | null;
  thumbSha256: string | null;
  thumbMime: string | null;
  createdAt: string;
}

interface RawFile {
  id: string;
  session_id: string;
  origin: FileRow["origin"];
  name: string;
  kind: FileRow["kind"];
  mime: string;
  size: number;
  sha256: string;
  width: number | null;
  height: number | null;
  duration_sec: number | null;
  thumb_sha256: string | null;
  thumb_mime: string | null;
  created_at: string;
}

const fromRaw = (r: RawFile): FileRow => ({
  id: r.id,
  sessionId: r.session_id,
  origin: r.origin,
  name: r.name,
  kind: r.kind,
  mime: r.mime,
  size: r.size,
  sha256: r.sha256,
  width: r.width,
  height: r.height,
  durationSec: r.duration_sec,
  thumbSha256: r.thumb_sha256,
  thumbMime: r.thumb_mime,
  createdAt: r.created_at,
});

export function insertFile(db: Db, f: FileRow): void {
  db.prepare(
    `INSERT INTO files (id, session_id, origin, name, kind, mime, size, sha256, width, height,
       duration_sec, thumb_sha256, thumb_mime, created_at)
     VALUES (@id, @sessionId, @origin, @name, @kind, @mime, @size, @sha256, @width, @height,
       @durationSec, @thumbSha256, @thumbMime, @createdAt)`,
  ).run(f);
}

export function getFile(db: Db, id: string): FileRow | null {
  const row = db.prepare("SELECT * FROM files WHERE id = ?").get(id) as RawFile | undefined;
  return row ? fromRaw(row) : null;
}

export function filesOfSession(db: Db, sessionId: string): FileRow[] {
  const rows = db
    .prepare("SELECT * FROM files WHERE session_id = ? ORDER BY created_at, id")
    .all(sessionId) as RawFile[];
  return rows.map(fromRaw);
}

/** True while any file row still points at the blob, so it must not be deleted. */
export function blobInUse(db: Db, sha256: string): boolean {
  return (
    db
      .prepare("SELECT 1 FROM files WHERE sha256 = ? OR thumb_sha256 = ? LIMIT 1")
      .pluck()
      .get(sha256, sha256) !== undefined
  );
}
