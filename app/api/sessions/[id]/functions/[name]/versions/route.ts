import { listVersions } from "@/lib/functions/session-functions";
import { getArgus } from "@/lib/server/context";
import { credentialsOf, json, parseWith, route } from "@/lib/server/http";
import { authorizeSession } from "@/lib/sessions/service";
import { FunctionNameSchema } from "../params";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string; name: string }> };

/** Every version of one function, oldest first, with code, test and test output. */
export const GET = route(async (req: Request, { params }: Ctx) => {
  const core = getArgus();
  const p = await params;
  const session = await authorizeSession(core, p.id, credentialsOf(req));
  const name = parseWith(FunctionNameSchema, p.name);
  return json({ name, versions: await listVersions(core, session.id, name) });
});
