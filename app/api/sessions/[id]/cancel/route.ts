import { ArgusError } from "@/lib/errors";
import { getArgus } from "@/lib/server/context";
import { credentialsOf, route } from "@/lib/server/http";
import { authorizeSession } from "@/lib/sessions/service";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string }> };

export const POST = route(async (req: Request, { params }: Ctx) => {
  const core = getArgus();
  authorizeSession(core, (await params).id, credentialsOf(req));
  throw new ArgusError("conflict:session", "There is no active run to stop.");
});
