import { exportBundle } from "@/lib/functions/export-bundle";
import { getVersion } from "@/lib/functions/session-functions";
import { getArgus } from "@/lib/server/context";
import { credentialsOf, parseWith, route } from "@/lib/server/http";
import { authorizeFunctionCall } from "@/lib/sessions/function-tokens";
import { FunctionNameSchema, VersionSchema } from "../params";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string; name: string }> };

/**
 * The function (latest, or `?version=`) as a zip that runs outside Argus with plain python3:
 * its script beside the argus package; neural tools reach this server at ARGUS_URL with ARGUS_TOKEN.
 */
export const GET = route(async (req: Request, { params }: Ctx) => {
  const core = getArgus();
  const p = await params;
  const session = await authorizeFunctionCall(core, p.id, credentialsOf(req));
  const name = parseWith(FunctionNameSchema, p.name);
  const versionParam = new URL(req.url).searchParams.get("version");
  const kept = await getVersion(core, session.id, name, versionParam === null ? null : parseWith(VersionSchema, versionParam));
  const zip = await exportBundle({ sessionId: session.id, name: kept.name, version: kept.version, code: kept.code }, core.pythonDir);
  return new Response(new Uint8Array(zip), {
    headers: {
      "content-type": "application/zip",
      "content-disposition": `attachment; filename="${kept.name}.zip"`,
      "cache-control": "no-store",
    },
  });
});
