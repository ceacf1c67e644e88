import type { Db } from "./database";

export interface SessionRow {
  id: string;
  tokenHash: string;
  browserHash: string | null;
  title: string | null;
  settings: Record<string, unknown>;
  lastSeq: number;
  createdAt: string;
  updatedAt: string;
}

interface RawSession {
  id: string;
  token_hash: string;
  browser_hash: string | null;
  title: string | null;
  settings: string;
  last_seq: number;
  created_at: string;
  updated_at: string;
}

function fromRaw(r: RawSession): SessionRow {
  return {
    id: r.id,
    tokenHash: r.token_hash,
    browserHash: r.browser_hash,
    title: r.title,
    settings: JSON.parse(r.settings) as Record<string, unknown>,
    lastSeq: r.last_seq,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export function insertSession(
  db: Db,
  s: { id: string; tokenHash: string; browserHash: string | null; now: string },
): void {
  db.prepare(
    `INSERT INTO sessions (id, token_hash, browser_hash, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?)`,
  ).run(s.id, s.tokenHash, s.browserHash, s.now, s.now);
}

export function getSession(db: Db, id: string): SessionRow | null {
  const row = db.prepare("SELECT * FROM sessions WHERE id = ?").get(id) as RawSession | undefined;
  return row ? fromRaw(row) : null;
}

export function listSessionsByBrowser(db: Db, browserHash: string, limit = 200): SessionRow[] {
  const rows = db
    .prepare(
      `SELECT * FROM sessions WHERE browser_hash = ?
       ORDER BY updated_at DESC, id LIMIT ?`,
    )
    .all(browserHash, limit) as RawSession[];
  return rows.map(fromRaw);
}

export function setSessionTitle(db: Db, id: string, title: string, now: string): void {
  db.prepare("UPDATE sessions SET title = ?, updated_at = ? WHERE id = ?").run(title, now, id);
}

/** Sets the title only if none was set: the first message names the session. */
export function setTitleIfEmpty(db: Db, id: string, title: string): void {
  db.prepare("UPDATE sessions SET title = ? WHERE id = ? AND title IS NULL").run(title, id);
}

/** Merges settings into the session's settings object. */
export function mergeSessionSettings(db: Db, id: string, patch: Record<string, unknown>): Record<string, unknown> {
  return db.transaction(() => {
    const current = JSON.parse((db.prepare("SELECT settings FROM sessions WHERE id = ?").pluck().get(id) as string | undefined) ?? "{}") as Record<string, unknown>;
    const next = { ...current, ...patch };
    db.prepare("UPDATE sessions SET settings = ? WHERE id = ?").run(JSON.stringify(next), id);
    return next;
  })();
}

export function deleteSession(db: Db, id: string): boolean {
  return db.prepare("DELETE FROM sessions WHERE id = ?").run(id).changes > 0;
}
