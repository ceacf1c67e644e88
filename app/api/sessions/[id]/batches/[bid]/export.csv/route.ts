import { batchCsv } from "@/lib/batches/export";
import { allItems } from "@/lib/batches/service";
import { fileUrl } from "@/lib/protocol/files";
import { getArgus } from "@/lib/server/context";
import { credentialsOf, route } from "@/lib/server/http";
import { authorizeSession } from "@/lib/sessions/service";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string; bid: string }> };

/** The batch's results as CSV (one row per file), downloaded as a file. */
export const GET = route(async (req: Request, { params }: Ctx) => {
  const core = getArgus();
  const { id, bid } = await params;
  const session = await authorizeSession(core, id, credentialsOf(req));
  const { batch, items } = await allItems(core, session.id, bid);
  return new Response(batchCsv(items, fileUrl), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${batch.functionName}-batch-${batch.id.slice(0, 8)}.csv"`,
      "cache-control": "no-store",
    },
  });
});
