import { getVersion, versionView } from "@/lib/features/functions/session-functions";
import { argusArea } from "@/lib/server/areas";
import { credentialsOf, json, parseWith, route } from "@/lib/server/http";
import { authorizeSession } from "@/lib/features/sessions/service";
import { FunctionNameSchema, VersionSchema } from "../../params";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string; name: string; v: string }> };

/** One version of one function. */
export const GET = route(async (req: Request, { params }: Ctx) => {
  const area = argusArea("functions");
  const p = await params;
  const session = await authorizeSession(area, p.id, credentialsOf(req));
  const name = parseWith(FunctionNameSchema, p.name);
  const version = parseWith(VersionSchema, p.v);
  return json(versionView(await getVersion(area, session.id, name, version)));
});
