import { PatchSessionBody } from "@/lib/protocol/api";
import { getArgus } from "@/lib/server/context";
import { credentialsOf, json, readJson, route } from "@/lib/server/http";
import { mergeSessionSettings } from "@/lib/db/sessions";
import { authorizeSession, removeSession, renameSession, sessionView } from "@/lib/sessions/service";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string }> };

export const GET = route(async (req: Request, { params }: Ctx) => {
  const core = getArgus();
  const session = await authorizeSession(core, (await params).id, credentialsOf(req));
  return json(await sessionView(core, session));
});

export const PATCH = route(async (req: Request, { params }: Ctx) => {
  const core = getArgus();
  const session = await authorizeSession(core, (await params).id, credentialsOf(req));
  const body = await readJson(req, PatchSessionBody);
  if (body.title !== undefined) await renameSession(core, session, body.title);
  const settings = body.settings ? await mergeSessionSettings(core.db, session.id, body.settings) : session.settings;
  return json({ id: session.id, title: body.title ?? session.title, settings });
});

export const DELETE = route(async (req: Request, { params }: Ctx) => {
  const core = getArgus();
  const session = await authorizeSession(core, (await params).id, credentialsOf(req));
  await removeSession(core, session);
  return new Response(null, { status: 204 });
});
