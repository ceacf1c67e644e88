import { randomUUID } from "node:crypto";
import { deleteFunctionToken, functionTokenOpens, functionTokensOfSession, insertFunctionToken } from "@/lib/db/function-tokens";
import type { FileRow } from "@/lib/db/files";
import { getSession, type SessionRow } from "@/lib/db/sessions";
import { ArgusError, isArgusError } from "@/lib/errors";
import type { FunctionTokenCreated, FunctionTokenView } from "@/lib/protocol/functions";
import { hashSecret, newSecret } from "@/lib/server/auth";
import { authorizeSession, type Credentials, type SessionDeps } from "./service";

/**
 * Function tokens let a script call the session's functions over HTTP
 * (POST …/functions/:name/run) when the session was made in a browser, whose
 * own credential is an HttpOnly cookie a script cannot use. A function token
 * opens nothing else: not the chat, not the files, not another session.
 */
export async function createFunctionToken(deps: Pick<SessionDeps, "db">, session: SessionRow): Promise<FunctionTokenCreated> {
  const token = newSecret();
  const row = { id: randomUUID(), sessionId: session.id, createdAt: new Date().toISOString() };
  await insertFunctionToken(deps.db, { ...row, tokenHash: hashSecret(token) });
  return { id: row.id, createdAt: row.createdAt, token };
}

export async function listFunctionTokens(deps: Pick<SessionDeps, "db">, session: SessionRow): Promise<FunctionTokenView[]> {
  return (await functionTokensOfSession(deps.db, session.id)).map(({ id, createdAt }) => ({ id, createdAt }));
}

export async function revokeFunctionToken(deps: Pick<SessionDeps, "db">, session: SessionRow, tokenId: string): Promise<void> {
  if (!(await deleteFunctionToken(deps.db, session.id, tokenId))) {
    throw new ArgusError("not_found:function", "This session has no such token (it may have been revoked already).");
  }
}

/** Authorises a function call: the session's own credentials, or one of its function tokens. */
export async function authorizeFunctionCall(deps: SessionDeps, sessionId: string, cred: Credentials): Promise<SessionRow> {
  try {
    return await authorizeSession(deps, sessionId, cred);
  } catch (error) {
    if (!cred.token || !isArgusError(error) || error.type !== "forbidden") throw error;
    if (!(await functionTokenOpens(deps.db, sessionId, hashSecret(cred.token)))) throw error;
    const session = await getSession(deps.db, sessionId);
    if (!session) throw error;
    return session;
  }
}

/**
 * Authorises reading a stored file: the owning session's credentials, or — for
 * a generated picture only (what a function call answers in `images`) — one of
 * its function tokens. Uploads stay behind the session's own credentials. An
 * unknown file is refused like a foreign one.
 */
export async function authorizeFileRead(deps: SessionDeps, file: FileRow | null, cred: Credentials): Promise<void> {
  const sessionId = file?.sessionId ?? "unknown";
  if (file?.origin === "generated") await authorizeFunctionCall(deps, sessionId, cred);
  else await authorizeSession(deps, sessionId, cred);
}
