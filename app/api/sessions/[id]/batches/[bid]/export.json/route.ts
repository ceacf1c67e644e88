import { batchExport } from "@/lib/features/batches/service";
import { argusArea } from "@/lib/server/areas";
import { credentialsOf, route } from "@/lib/server/http";
import { authorizeSession } from "@/lib/features/sessions/service";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string; bid: string }> };

/** The batch and all its items as JSON, downloaded as a file. */
export const GET = route(async (req: Request, { params }: Ctx) => {
  const area = argusArea("batches");
  const { id, bid } = await params;
  const session = await authorizeSession(area, id, credentialsOf(req));
  const file = await batchExport(area, session.id, bid, "json");
  return new Response(file.body, {
    headers: { "content-type": file.contentType, "content-disposition": `attachment; filename="${file.filename}"`, "cache-control": "no-store" },
  });
});
