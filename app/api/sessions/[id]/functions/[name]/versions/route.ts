import { listVersions } from "@/lib/features/functions/session-functions";
import { argusArea } from "@/lib/server/areas";
import { credentialsOf, json, parseWith, route } from "@/lib/server/http";
import { authorizeSession } from "@/lib/features/sessions/service";
import { FunctionNameSchema } from "../params";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string; name: string }> };

/** Every version of one function, oldest first, with code, test and test output. */
export const GET = route(async (req: Request, { params }: Ctx) => {
  const area = argusArea("functions");
  const p = await params;
  const session = await authorizeSession(area, p.id, credentialsOf(req));
  const name = parseWith(FunctionNameSchema, p.name);
  return json({ name, versions: await listVersions(area, session.id, name) });
});
