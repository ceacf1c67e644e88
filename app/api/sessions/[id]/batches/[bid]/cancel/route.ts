import { batchOfSession } from "@/lib/batches/service";
import { getArgus } from "@/lib/server/context";
import { credentialsOf, json, route } from "@/lib/server/http";
import { authorizeSession } from "@/lib/sessions/service";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string; bid: string }> };

/** Stops the batch: running items are interrupted, the rest marked cancelled. → {batch} */
export const POST = route(async (req: Request, { params }: Ctx) => {
  const core = getArgus();
  const { id, bid } = await params;
  const session = await authorizeSession(core, id, credentialsOf(req));
  await batchOfSession(core, session.id, bid);
  await core.batches.cancel(bid);
  return json({ batch: (await core.batches.view(bid))!.batch });
});
