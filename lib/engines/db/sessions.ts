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

export async function insertSession(
  db: Db,
  s: { id: string; tokenHash: string; browserHash: string | null; now: string },
): Promise<void> {
  await db.run(
    `INSERT INTO sessions (id, token_hash, browser_hash, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?)`,
    [s.id, s.tokenHash, s.browserHash, s.now, s.now],
  );
}

export async function getSession(db: Db, id: string): Promise<SessionRow | null> {
  const row = await db.one<RawSession>("SELECT * FROM sessions WHERE id = ?", [id]);
  return row ? fromRaw(row) : null;
}

export async function listSessionsByBrowser(db: Db, browserHash: string, limit = 200): Promise<SessionRow[]> {
  const rows = await db.all<RawSession>(
    `SELECT * FROM sessions WHERE browser_hash = ?
     ORDER BY updated_at DESC, id LIMIT ?`,
    [browserHash, limit],
  );
  return rows.map(fromRaw);
}

/** Moves every session bound to one of `fromHashes` to the browser identity `toHash` (browser-identity.ts). */
export async function rebindBrowserSessions(db: Db, fromHashes: readonly string[], toHash: string): Promise<number> {
  if (fromHashes.length === 0) return 0;
  const marks = fromHashes.map(() => "?").join(", ");
  return (await db.run(`UPDATE sessions SET browser_hash = ? WHERE browser_hash IN (${marks})`, [toHash, ...fromHashes])).changes;
}

export async function setSessionTitle(db: Db, id: string, title: string, now: string): Promise<void> {
  await db.run("UPDATE sessions SET title = ?, updated_at = ? WHERE id = ?", [title, now, id]);
}

/** Sets the title only if none was set: the first message names the session. */
export async function setTitleIfEmpty(db: Db, id: string, title: string): Promise<void> {
  await db.run("UPDATE sessions SET title = ? WHERE id = ? AND title IS NULL", [title, id]);
}

/** Merges settings into the session's settings object (the row is locked until commit, so merges never lose a key). */
export function mergeSessionSettings(db: Db, id: string, patch: Record<string, unknown>): Promise<Record<string, unknown>> {
  return db.transaction(async (tx) => {
    const lock = tx.kind === "postgres" ? " FOR UPDATE" : "";
    const row = await tx.one<{ settings: string }>(`SELECT settings FROM sessions WHERE id = ?${lock}`, [id]);
    const next = { ...(JSON.parse(row?.settings ?? "{}") as Record<string, unknown>), ...patch };
    await tx.run("UPDATE sessions SET settings = ? WHERE id = ?", [JSON.stringify(next), id]);
    return next;
  });
}

export async function deleteSession(db: Db, id: string): Promise<boolean> {
  return (await db.run("DELETE FROM sessions WHERE id = ?", [id])).changes > 0;
}

/** The session whose own token hashes to `tokenHash` (the HTTP tool routes have no session in their path). */
export async function sessionByTokenHash(db: Db, tokenHash: string): Promise<SessionRow | null> {
  const row = await db.one<RawSession>("SELECT * FROM sessions WHERE token_hash = ?", [tokenHash]);
  return row ? fromRaw(row) : null;
}
