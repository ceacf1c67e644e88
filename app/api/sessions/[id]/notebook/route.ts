import { zipFiles } from "@/lib/engines/files/zip-writer";
import { argusPackageFiles } from "@/lib/engines/kernels/argus-package";
import { recordedCells } from "@/lib/engines/kernels/cell-record";
import { buildNotebook } from "@/lib/engines/kernels/notebook";
import { argusArea } from "@/lib/server/areas";
import { credentialsOf, route } from "@/lib/server/http";
import { authorizeSession } from "@/lib/features/sessions/service";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string }> };

/**
 * The session's notebook (every cell its kernel ran, with outputs) as nbformat 4 JSON, starting with
 * the cells that load Argus's helpers so it runs in plain Jupyter (lib/engines/kernels/notebook-helpers.ts).
 */
export const GET = route(async (req: Request, { params }: Ctx) => {
  const area = argusArea("sessions");
  const session = await authorizeSession(area, (await params).id, credentialsOf(req));
  const packageZip = zipFiles(await argusPackageFiles(area.pythonDir));
  const cells = await recordedCells({ db: area.db, dataDir: area.config.dataDir }, session.id);
  const notebook = buildNotebook(cells, { title: session.title, helpers: { packageZip, sessionId: session.id } });
  const base = (session.title ?? "argus-session").replace(/[^\w.-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 80) || "argus-session";
  return new Response(JSON.stringify(notebook, null, 1), {
    headers: {
      "content-type": "application/x-ipynb+json",
      "content-disposition": `attachment; filename="${base}.ipynb"`,
      "cache-control": "no-store",
    },
  });
});
