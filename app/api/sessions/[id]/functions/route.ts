import { listFunctions } from "@/lib/features/functions/session-functions";
import { argusArea } from "@/lib/server/areas";
import { credentialsOf, json, route } from "@/lib/server/http";
import { authorizeSession } from "@/lib/features/sessions/service";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string }> };

/** The session's kept functions, newest first, each with its latest version. */
export const GET = route(async (req: Request, { params }: Ctx) => {
  const area = argusArea("functions");
  const session = await authorizeSession(area, (await params).id, credentialsOf(req));
  return json({ functions: await listFunctions(area, session.id) });
});
