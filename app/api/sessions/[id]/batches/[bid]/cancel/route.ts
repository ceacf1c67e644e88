import { batchOfSession } from "@/lib/features/batches/service";
import { argusArea } from "@/lib/server/areas";
import { credentialsOf, json, route } from "@/lib/server/http";
import { authorizeSession } from "@/lib/features/sessions/service";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string; bid: string }> };

/** Stops the batch: running items are interrupted, the rest marked cancelled. → {batch} */
export const POST = route(async (req: Request, { params }: Ctx) => {
  const area = argusArea("batches");
  const { id, bid } = await params;
  const session = await authorizeSession(area, id, credentialsOf(req));
  await batchOfSession(area, session.id, bid);
  await area.batches.cancel(bid);
  return json({ batch: (await area.batches.view(bid))!.batch });
});
