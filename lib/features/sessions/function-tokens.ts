import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { deleteFunctionToken, functionTokenIdOf, functionTokensOfSession, insertFunctionToken } from "@/lib/engines/db/function-tokens";
import type { FileRow } from "@/lib/engines/db/files";
import { getSession, type SessionRow } from "@/lib/engines/db/sessions";
import { ArgusError, isArgusError } from "@/lib/foundation/errors";
import type { FunctionTokenCreated, FunctionTokenView } from "@/lib/foundation/protocol/functions";
import { hashSecret, newSecret } from "@/lib/foundation/common/secrets";
import { authorizeSession, type Credentials, type SessionDeps } from "./service";

/**
 * Function tokens let a script call the session's functions over HTTP
 * (POST …/functions/:name/run) when the session was made in a browser, whose
 * own credential is an HttpOnly cookie a script cannot use. A function token
 * runs functions on the bytes it sends and reads the pictures its own calls
 * saved; it opens nothing else: not the chat, not the session's uploads or
 * other pictures, not another session.
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

/** Who a function call comes from: the session's own credentials, or one of its function tokens (its id). */
export interface FunctionCaller {
  session: SessionRow;
  functionTokenId: string | null;
}

/** Authorises a function call: the session's own credentials, or one of its function tokens. */
export async function authorizeFunctionCall(deps: SessionDeps, sessionId: string, cred: Credentials): Promise<FunctionCaller> {
  try {
    return { session: await authorizeSession(deps, sessionId, cred), functionTokenId: null };
  } catch (error) {
    if (!cred.token || !isArgusError(error) || error.type !== "forbidden") throw error;
    const functionTokenId = await functionTokenIdOf(deps.db, sessionId, hashSecret(cred.token));
    if (!functionTokenId) throw error;
    const session = await getSession(deps.db, sessionId);
    if (!session) throw error;
    return { session, functionTokenId };
  }
}

/**
 * The proof that a picture came out of one function token's own call: an HMAC of the file and
 * token ids, keyed by the session's token hash (a secret the function token's holder never sees).
 * It rides in the `images` URLs the call answers with, so nothing new is stored.
 */
function fileGrant(session: SessionRow, functionTokenId: string, fileId: string): string {
  return createHmac("sha256", session.tokenHash).update(`function-file\0${functionTokenId}\0${fileId}`).digest("base64url");
}

/** The pictures a function token's call saved, with URLs that this token (and only it) can read. */
export function grantedImages<I extends { fileId: string; url: string }>(caller: FunctionCaller, images: I[]): I[] {
  const tokenId = caller.functionTokenId;
  if (!tokenId) return images;
  return images.map((i) => ({ ...i, url: `${i.url}?grant=${fileGrant(caller.session, tokenId, i.fileId)}` }));
}

/**
 * Authorises reading a stored file: the owning session's credentials, or a
 * function token with the grant its own call answered with (grantedImages).
 * A function token opens no upload, no picture of the chat (a cell's output,
 * a browser screenshot) and no picture another token's call made. An unknown
 * file is refused like a foreign one.
 */
export async function authorizeFileRead(deps: SessionDeps, file: FileRow | null, cred: Credentials, grant: string | null): Promise<void> {
  const sessionId = file?.sessionId ?? "unknown";
  try {
    await authorizeSession(deps, sessionId, cred);
  } catch (error) {
    if (!file || file.origin !== "generated" || !grant || !cred.token || !isArgusError(error) || error.type !== "forbidden") throw error;
    const functionTokenId = await functionTokenIdOf(deps.db, sessionId, hashSecret(cred.token));
    const session = functionTokenId ? await getSession(deps.db, sessionId) : null;
    if (!functionTokenId || !session || !sameText(grant, fileGrant(session, functionTokenId, file.id))) throw error;
  }
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
