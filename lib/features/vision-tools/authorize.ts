import { sessionOfFunctionToken } from "@/lib/engines/db/function-tokens";
import { getSession, sessionByTokenHash, type SessionRow } from "@/lib/engines/db/sessions";
import { ArgusError } from "@/lib/foundation/errors";
import { hashSecret } from "@/lib/foundation/common/secrets";
import { authorizeFunctionCall } from "@/lib/features/sessions/function-tokens";
import type { Credentials, SessionDeps } from "@/lib/features/sessions/service";

/**
 * Who may call `POST /api/tools/:name`: a session's own token or one of its function tokens (what
 * an exported function carries as ARGUS_TOKEN). The path names no session, so the token finds its
 * own. With `X-Argus-Session: <id>` the credentials must open that session (its token, one of its
 * function tokens, or the browser cookie from Argus's own page): another session's token is refused.
 */
export async function authorizeToolCall(deps: SessionDeps, cred: Credentials, sessionId: string | null): Promise<SessionRow> {
  if (sessionId) return (await authorizeFunctionCall(deps, sessionId, cred)).session;
  if (!cred.token) {
    throw new ArgusError("unauthorized:tool", "Vision tools need a token: send 'Authorization: Bearer <token>' with the session's token or a function token.");
  }
  const hash = hashSecret(cred.token);
  const own = await sessionByTokenHash(deps.db, hash);
  if (own) return own;
  const viaFunctionToken = await sessionOfFunctionToken(deps.db, hash);
  const session = viaFunctionToken ? await getSession(deps.db, viaFunctionToken) : null;
  if (session) return session;
  throw new ArgusError("forbidden:tool", "This token opens no session: it is wrong, revoked, or its session was deleted.");
}
