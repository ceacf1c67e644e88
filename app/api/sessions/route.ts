import { CreateSessionBody } from "@/lib/protocol/api";
import { browserCookieHeader, newSecret } from "@/lib/server/auth";
import { clientAddressOf } from "@/lib/server/client-address";
import { getArgus } from "@/lib/server/context";
import { credentialsOf, json, readJson, route } from "@/lib/server/http";
import { createSession, listSessions, renameSession } from "@/lib/sessions/service";
import { getSession } from "@/lib/db/sessions";

export const dynamic = "force-dynamic";

/** Create a session. The browser cookie is issued here if the browser has none yet. */
export const POST = route(async (req: Request) => {
  const core = getArgus();
  const cred = credentialsOf(req);
  core.sessionCreation.admit({ address: clientAddressOf(req), browser: cred.browser });
  core.disk.assertRoom("session");
  const hasBody = (req.headers.get("content-length") ?? "0") !== "0" || req.headers.has("content-type");
  const body = hasBody ? await readJson(req, CreateSessionBody) : {};
  const browser = cred.browser ?? newSecret();
  const created = await createSession(core, browser);
  if (body.title) await renameSession(core, (await getSession(core.db, created.id))!, body.title);
  const headers = new Headers();
  if (!cred.browser) headers.set("set-cookie", browserCookieHeader(browser, core.config.secureCookies));
  return json(created, { status: 201, headers });
});

/** This browser's sessions, newest first (an empty list without the browser cookie). */
export const GET = route(async (req: Request) => {
  const core = getArgus();
  return json({ sessions: await listSessions(core, credentialsOf(req).browser) });
});
