import { exportResponse } from "@/lib/features/functions/export-bundle";
import { getVersion } from "@/lib/features/functions/session-functions";
import { argusArea } from "@/lib/server/areas";
import { credentialsOf, parseWith, route } from "@/lib/server/http";
import { authorizeSession } from "@/lib/features/sessions/service";
import { FunctionNameSchema, VersionSchema } from "../params";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string; name: string }> };

/**
 * The function (latest, or `?version=`) as a zip that runs outside Argus with plain python3:
 * `<name>.py` beside the argus package; neural tools reach this server at ARGUS_URL with ARGUS_TOKEN.
 * `…/versions/:v/export` answers the same for one version. Only the session's own credentials
 * download it: a function token runs functions, it never reads their code (it opens no function
 * list either).
 */
export const GET = route(async (req: Request, { params }: Ctx) => {
  const area = argusArea("functions");
  const p = await params;
  const session = await authorizeSession(area, p.id, credentialsOf(req));
  const name = parseWith(FunctionNameSchema, p.name);
  const versionParam = new URL(req.url).searchParams.get("version");
  const kept = await getVersion(area, session.id, name, versionParam === null ? null : parseWith(VersionSchema, versionParam));
  return exportResponse({ sessionId: session.id, name: kept.name, version: kept.version, code: kept.code }, area.pythonDir);
});
