import { PatchSessionBody } from "@/lib/foundation/protocol/api";
import { argusArea } from "@/lib/server/areas";
import { credentialsOf, json, readJson, route } from "@/lib/server/http";
import { mergeSessionSettings } from "@/lib/engines/db/sessions";
import { authorizeSession, removeSession, renameSession, sessionView } from "@/lib/features/sessions/service";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string }> };

export const GET = route(async (req: Request, { params }: Ctx) => {
  const area = argusArea("sessions");
  const session = await authorizeSession(area, (await params).id, credentialsOf(req));
  return json(await sessionView(area, session));
});

export const PATCH = route(async (req: Request, { params }: Ctx) => {
  const area = argusArea("sessions");
  const session = await authorizeSession(area, (await params).id, credentialsOf(req));
  const body = await readJson(req, PatchSessionBody);
  if (body.title !== undefined) await renameSession(area, session, body.title);
  const settings = body.settings ? await mergeSessionSettings(area.db, session.id, body.settings) : session.settings;
  return json({ id: session.id, title: body.title ?? session.title, settings });
});

export const DELETE = route(async (req: Request, { params }: Ctx) => {
  const area = argusArea("sessions");
  const session = await authorizeSession(area, (await params).id, credentialsOf(req));
  await removeSession(area, session);
  return new Response(null, { status: 204 });
});
