import { argusArea } from "@/lib/server/areas";
import { credentialsOf, route } from "@/lib/server/http";
import { chatExportZip, exportFileName } from "@/lib/features/sessions/chat-export";
import { authorizeSession } from "@/lib/features/sessions/service";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string }> };

/** The chat as Markdown with its pictures: a zip of `chat.md` and `images/` (lib/features/sessions/chat-export.ts). Owner only. */
export const GET = route(async (req: Request, { params }: Ctx) => {
  const area = argusArea("sessions");
  const session = await authorizeSession(area, (await params).id, credentialsOf(req));
  const zip = await chatExportZip(area, session);
  return new Response(new Uint8Array(zip), {
    headers: {
      "content-type": "application/zip",
      "content-disposition": `attachment; filename="${exportFileName(session.title)}"`,
      "cache-control": "no-store",
    },
  });
});
