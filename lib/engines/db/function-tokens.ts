import type { Db } from "./database";

/** A token that runs one session's functions over HTTP and opens nothing else (stored hashed). */
export interface FunctionTokenRow {
  id: string;
  sessionId: string;
  createdAt: string;
}

export async function insertFunctionToken(db: Db, row: FunctionTokenRow & { tokenHash: string }): Promise<void> {
  await db.run("INSERT INTO function_tokens (id, session_id, token_hash, created_at) VALUES (?, ?, ?, ?)", [
    row.id,
    row.sessionId,
    row.tokenHash,
    row.createdAt,
  ]);
}

/** The id of the session's function token whose hash is `tokenHash`, or null when it has none such. */
export async function functionTokenIdOf(db: Db, sessionId: string, tokenHash: string): Promise<string | null> {
  const row = await db.one<{ id: string }>("SELECT id FROM function_tokens WHERE session_id = ? AND token_hash = ?", [sessionId, tokenHash]);
  return row?.id ?? null;
}

export async function functionTokensOfSession(db: Db, sessionId: string): Promise<FunctionTokenRow[]> {
  return db.all<FunctionTokenRow>(
    "SELECT id, session_id AS \"sessionId\", created_at AS \"createdAt\" FROM function_tokens WHERE session_id = ? ORDER BY created_at, id",
    [sessionId],
  );
}

/** Revokes one token; false when the session has no such token. */
export async function deleteFunctionToken(db: Db, sessionId: string, id: string): Promise<boolean> {
  return (await db.run("DELETE FROM function_tokens WHERE session_id = ? AND id = ?", [sessionId, id])).changes > 0;
}

/** The session a function token belongs to, or null for a token that is unknown (or revoked). */
export async function sessionOfFunctionToken(db: Db, tokenHash: string): Promise<string | null> {
  const row = await db.one<{ sessionId: string }>('SELECT session_id AS "sessionId" FROM function_tokens WHERE token_hash = ?', [tokenHash]);
  return row?.sessionId ?? null;
}
