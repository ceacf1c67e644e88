import { batchPage } from "@/lib/features/batches/service";
import { BatchPageSchema } from "@/lib/foundation/protocol/batches";
import { argusArea } from "@/lib/server/areas";
import { credentialsOf, json, parseWith, route } from "@/lib/server/http";
import { authorizeSession } from "@/lib/features/sessions/service";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string; bid: string }> };

/** The batch's state, progress and one page of items (`?offset=&limit=`, at most 1000). */
export const GET = route(async (req: Request, { params }: Ctx) => {
  const area = argusArea("batches");
  const { id, bid } = await params;
  const session = await authorizeSession(area, id, credentialsOf(req));
  const q = new URL(req.url).searchParams;
  const page = parseWith(BatchPageSchema, { offset: q.get("offset") ?? undefined, limit: q.get("limit") ?? undefined });
  return json(await batchPage(area, session.id, bid, page));
});
