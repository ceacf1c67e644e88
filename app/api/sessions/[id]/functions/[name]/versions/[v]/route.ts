import { getVersion, versionView } from "@/lib/functions/session-functions";
import { getArgus } from "@/lib/server/context";
import { credentialsOf, json, parseWith, route } from "@/lib/server/http";
import { authorizeSession } from "@/lib/sessions/service";
import { FunctionNameSchema, VersionSchema } from "../../params";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string; name: string; v: string }> };

/** One version of one function. */
export const GET = route(async (req: Request, { params }: Ctx) => {
  const core = getArgus();
  const p = await params;
  const session = await authorizeSession(core, p.id, credentialsOf(req));
  const name = parseWith(FunctionNameSchema, p.name);
  const version = parseWith(VersionSchema, p.v);
  return json(versionView(await getVersion(core, session.id, name, version)));
});
