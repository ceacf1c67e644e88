import { argusArea } from "@/lib/server/areas";
import { credentialsOf, json, route } from "@/lib/server/http";
import { authorizeSession } from "@/lib/features/sessions/service";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string }> };

/** Stops the active run: its model call is aborted and its running cell interrupted. */
export const POST = route(async (req: Request, { params }: Ctx) => {
  const area = argusArea("runs");
  const session = await authorizeSession(area, (await params).id, credentialsOf(req));
  // The run may belong to another instance: the router sends the cancel to its owner.
  return json(await area.runRouter.cancel(session.id), { status: 202 });
});
