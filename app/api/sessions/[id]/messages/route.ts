import { getFile } from "@/lib/db/files";
import { ArgusError } from "@/lib/errors";
import { PostMessageBody } from "@/lib/protocol/api";
import { getArgus } from "@/lib/server/context";
import { credentialsOf, readJson, route } from "@/lib/server/http";
import { authorizeSession } from "@/lib/sessions/service";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string }> };

export const POST = route(async (req: Request, { params }: Ctx) => {
  const core = getArgus();
  const session = authorizeSession(core, (await params).id, credentialsOf(req));
  const body = await readJson(req, PostMessageBody);
  body.media?.forEach((id, i) => {
    if (getFile(core.db, id)?.sessionId !== session.id) {
      throw new ArgusError("bad_request:message", `media.${i}: no upload with that id in this session`, {
        field: `media.${i}`,
      });
    }
  });
  // The agent runtime lands with the agents issue; until then say so plainly
  // rather than accept a message nothing will answer.
  throw new ArgusError("unavailable:message", "No agent runtime yet: this build of Argus stores sessions and uploads but cannot answer messages.");
});
