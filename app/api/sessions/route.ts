import { CreateSessionBody } from "@/lib/protocol/api";
import { browserCookieHeader, shadowCookieRemovals } from "@/lib/server/auth";
import { clientAddressOf } from "@/lib/server/client-address";
import { getArgus } from "@/lib/server/context";
import { credentialsOf, json, readJson, route } from "@/lib/server/http";
import { createSession, listSessions, renameSession } from "@/lib/sessions/service";
import { browserHasSessions, getSession } from "@/lib/db/sessions";
import { identityForNewSession } from "@/lib/sessions/browser-identity";

export const dynamic = "force-dynamic";

/**
 * Create a session. The browser cookie is minted here, and only here: when the browser has none,
 * or sent one the server never issued, or several (see browser-identity.ts).
 */
export const POST = route(async (req: Request) => {
  const core = getArgus();
  const cred = credentialsOf(req);
  core.sessionCreation.admit({ address: clientAddressOf(req), browser: cred.browsers[0] ?? null });
  core.disk.assertRoom("session");
  const hasBody = (req.headers.get("content-length") ?? "0") !== "0" || req.headers.has("content-type");
  const body = hasBody ? await readJson(req, CreateSessionBody) : {};
  // Bound only to an identity the server minted: a cookie another page chose is replaced.
  const { identity, issued } = await identityForNewSession(cred.browsers, (hash) => browserHasSessions(core.db, hash));
  const created = await createSession(core, identity);
  if (body.title) await renameSession(core, (await getSession(core.db, created.id))!, body.title);
  const headers = new Headers();
  if (issued) {
    const secure = core.config.secureCookies;
    headers.append("set-cookie", browserCookieHeader(identity, secure));
    if (!secure && cred.browsers.length > 0) for (const removal of shadowCookieRemovals()) headers.append("set-cookie", removal);
  }
  return json(created, { status: 201, headers });
});

/** This browser's sessions, newest first (an empty list without the browser cookie). */
export const GET = route(async (req: Request) => {
  const core = getArgus();
  return json({ sessions: await listSessions(core, credentialsOf(req).browsers) });
});
