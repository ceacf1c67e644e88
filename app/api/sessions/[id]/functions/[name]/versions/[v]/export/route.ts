import { exportResponse } from "@/lib/features/functions/export-bundle";
import { getVersion } from "@/lib/features/functions/session-functions";
import { argusArea } from "@/lib/server/areas";
import { credentialsOf, parseWith, route } from "@/lib/server/http";
import { authorizeSession } from "@/lib/features/sessions/service";
import { FunctionNameSchema, VersionSchema } from "../../../params";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string; name: string; v: string }> };

/**
 * One version of a function as a zip that runs outside Argus: `python3 <name>.py IMAGE…` prints
 * the result as JSON (lib/features/functions/export-script.ts). The session's own credentials only, as
 * `…/functions/:name/export`.
 */
export const GET = route(async (req: Request, { params }: Ctx) => {
  const area = argusArea("functions");
  const p = await params;
  const session = await authorizeSession(area, p.id, credentialsOf(req));
  const name = parseWith(FunctionNameSchema, p.name);
  const kept = await getVersion(area, session.id, name, parseWith(VersionSchema, p.v));
  return exportResponse({ sessionId: session.id, name: kept.name, version: kept.version, code: kept.code }, area.pythonDir);
});
