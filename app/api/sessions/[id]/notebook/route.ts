import { ArgusError } from "@/lib/errors";
import { getArgus } from "@/lib/server/context";
import { credentialsOf, route } from "@/lib/server/http";
import { authorizeSession } from "@/lib/sessions/service";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string }> };

export const GET = route(async (req: Request, { params }: Ctx) => {
  const core = getArgus();
  authorizeSession(core, (await params).id, credentialsOf(req));
  throw new ArgusError("unavailable:session", "No kernel runtime yet: notebooks arrive with the kernel registry.");
});
