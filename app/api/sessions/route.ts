import { CreateSessionBody } from "@/lib/foundation/protocol/api";
import { BROWSER_COOKIE, browserCookieHeader, readCookies, shadowCookieRemovals } from "@/lib/server/auth";
import { browserProofOf } from "@/lib/server/browser-proof";
import { clientAddressOf } from "@/lib/server/client-address";
import { argusArea } from "@/lib/server/areas";
import { credentialsOf, json, readJson, route } from "@/lib/server/http";
import { listSessions, renameSession } from "@/lib/features/sessions/service";
import { getSession } from "@/lib/engines/db/sessions";
import { createBrowserSession } from "@/lib/features/sessions/browser-identity";

export const dynamic = "force-dynamic";

/**
 * Create a session. The browser cookie is minted here, and only here, anew at every creation;
 * the chats of the cookie(s) the browser sent move to the new one (browser-identity.ts).
 */
export const POST = route(async (req: Request) => {
  const area = argusArea("sessions");
  const cred = credentialsOf(req);
  area.sessionCreation.admit({ address: clientAddressOf(req), browser: cred.browsers[0] ?? null });
  area.disk.assertRoom("session");
  const hasBody = (req.headers.get("content-length") ?? "0") !== "0" || req.headers.has("content-type");
  const body = hasBody ? await readJson(req, CreateSessionBody) : {};
  // Bound to an identity minted now, never to the cookie the request brought (browser-identity.ts).
  const { identity, ...created } = await createBrowserSession(area, cred.browsers);
  if (body.title) await renameSession(area, (await getSession(area.db, created.id))!, body.title);
  const headers = new Headers();
  const secure = area.config.secureCookies;
  headers.append("set-cookie", browserCookieHeader(identity, secure));
  // Any cookie of the name the request carried, proven or not (a planted one on a narrower path included).
  const carried = readCookies(req.headers.get("cookie"), BROWSER_COOKIE).length > 0;
  if (!secure && carried) for (const removal of shadowCookieRemovals()) headers.append("set-cookie", removal);
  // The page keeps the proof in its own origin's storage, where no other port can plant one (browser-proof.ts).
  return json({ ...created, browserProof: browserProofOf(identity) }, { status: 201, headers });
});

/** This browser's sessions, newest first (an empty list without the browser cookie). */
export const GET = route(async (req: Request) => {
  const area = argusArea("sessions");
  return json({ sessions: await listSessions(area, credentialsOf(req).browsers) });
});
