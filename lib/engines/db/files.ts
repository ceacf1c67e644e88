import type { FileKind } from "@/lib/foundation/protocol/files";
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

export async function insertFile(db: Db, f: FileRow): Promise<void> {
  await db.run(
    `INSERT INTO files (id, session_id, origin, name, kind, mime, size, sha256, width, height,
       duration_sec, thumb_sha256, thumb_mime, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [f.id, f.sessionId, f.origin, f.name, f.kind, f.mime, f.size, f.sha256, f.width, f.height,
      f.durationSec, f.thumbSha256, f.thumbMime, f.createdAt],
  );
}

export async function getFile(db: Db, id: string): Promise<FileRow | null> {
  const row = await db.one<RawFile>("SELECT * FROM files WHERE id = ?", [id]);
  return row ? fromRaw(row) : null;
}

export async function filesOfSession(db: Db, sessionId: string): Promise<FileRow[]> {
  const rows = await db.all<RawFile>("SELECT * FROM files WHERE session_id = ? ORDER BY created_at, id", [sessionId]);
  return rows.map(fromRaw);
}

/** True while any file row (or batch item: lib/engines/db/batches.ts) still points at the blob, so it must not be deleted. */
export async function blobInUse(db: Db, sha256: string): Promise<boolean> {
  if ((await db.one("SELECT 1 AS one FROM files WHERE sha256 = ? OR thumb_sha256 = ? LIMIT 1", [sha256, sha256])) !== undefined) return true;
  return (await db.one("SELECT 1 AS one FROM batch_items WHERE blob_sha256 = ? LIMIT 1", [sha256])) !== undefined;
}

/** Records a thumbnail made after the file was stored (generated pictures get theirs on first request). */
export async function setFileThumbnail(db: Db, id: string, thumb: { sha256: string; mime: string }): Promise<void> {
  await db.run("UPDATE files SET thumb_sha256 = ?, thumb_mime = ? WHERE id = ?", [thumb.sha256, thumb.mime, id]);
}
