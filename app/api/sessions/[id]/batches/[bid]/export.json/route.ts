import { batchExport } from "@/lib/batches/service";
import { getArgus } from "@/lib/server/context";
import { credentialsOf, route } from "@/lib/server/http";
import { authorizeSession } from "@/lib/sessions/service";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string; bid: string }> };

/** The batch and all its items as JSON, downloaded as a file. */
export const GET = route(async (req: Request, { params }: Ctx) => {
  const core = getArgus();
  const { id, bid } = await params;
  const session = await authorizeSession(core, id, credentialsOf(req));
  const file = await batchExport(core, session.id, bid, "json");
  return new Response(file.body, {
    headers: { "content-type": file.contentType, "content-disposition": `attachment; filename="${file.filename}"`, "cache-control": "no-store" },
  });
});
