import { getFile } from "@/lib/engines/db/files";
import { ArgusError } from "@/lib/foundation/errors";
import { PostMessageBody } from "@/lib/foundation/protocol/api";
import { argusArea } from "@/lib/server/areas";
import { credentialsOf, json, readJson, route } from "@/lib/server/http";
import { authorizeSession } from "@/lib/features/sessions/service";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string }> };

/** Starts a run, or answers the question a waiting run asked (same run resumes). */
export const POST = route(async (req: Request, { params }: Ctx) => {
  const area = argusArea("runs");
  const session = await authorizeSession(area, (await params).id, credentialsOf(req));
  const body = await readJson(req, PostMessageBody);
  for (const [i, id] of (body.media ?? []).entries()) {
    if ((await getFile(area.db, id))?.sessionId !== session.id) {
      throw new ArgusError("bad_request:message", `media.${i}: no upload with that id in this session`, {
        field: `media.${i}`,
      });
    }
  }
  // The run may belong to another instance: the router sends the message to its owner.
  const { runId, resumed } = await area.runRouter.post(session, body);
  return json({ runId, resumed: resumed ?? false }, { status: 202 });
});
