import { argusArea } from "@/lib/server/areas";
import { credentialsOf, json, route } from "@/lib/server/http";
import { createFunctionToken, listFunctionTokens } from "@/lib/features/sessions/function-tokens";
import { authorizeSession } from "@/lib/features/sessions/service";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string }> };

/** The session's function tokens (ids and dates only: a token is shown once, when it is made). */
export const GET = route(async (req: Request, { params }: Ctx) => {
  const area = argusArea("sessions");
  const session = await authorizeSession(area, (await params).id, credentialsOf(req));
  return json({ tokens: await listFunctionTokens(area, session) });
});

/** Makes a token that only runs this session's functions over HTTP (for scripts; docs/functions.md). */
export const POST = route(async (req: Request, { params }: Ctx) => {
  const area = argusArea("sessions");
  const session = await authorizeSession(area, (await params).id, credentialsOf(req));
  return json(await createFunctionToken(area, session), { status: 201 });
});
