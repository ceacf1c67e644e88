import { ArgusError } from "@/lib/foundation/errors";
import { sessionBatches, startBatch } from "@/lib/features/batches/service";
import { CreateBatchJsonSchema } from "@/lib/foundation/protocol/batches";
import { argusArea } from "@/lib/server/areas";
import { withBatchForm } from "@/lib/server/batch-form";
import { credentialsOf, json, readJson, route } from "@/lib/server/http";
import { isMultipartForm } from "@/lib/server/multipart";
import { authorizeSession } from "@/lib/features/sessions/service";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string }> };

/**
 * Starts a batch run of a session function. JSON `{functionName, functionVersion?, uploadIds}`
 * runs it on session uploads; multipart with `functionName`, `functionVersion?` and files in
 * `files` (a folder's) and/or `zip` runs it on those (lib/server/batch-form.ts). → 201 {batch}
 */
export const POST = route(async (req: Request, { params }: Ctx) => {
  const area = argusArea("batches");
  const session = await authorizeSession(area, (await params).id, credentialsOf(req));
  area.disk.assertRoom("upload");
  const type = (req.headers.get("content-type") ?? "").toLowerCase();
  if (type.includes("application/json")) {
    const body = await readJson(req, CreateBatchJsonSchema);
    const batch = await startBatch(area, session.id, { name: body.functionName, version: body.functionVersion }, { kind: "uploads", uploadIds: body.uploadIds });
    return json({ batch }, { status: 201 });
  }
  if (!isMultipartForm(req)) {
    throw new ArgusError("unsupported_media:api", "Send JSON with uploadIds, or multipart/form-data with files in 'files' or a zip in 'zip'.");
  }
  const batch = await withBatchForm(req, area, session.id, (fn, files) => startBatch(area, session.id, fn, files));
  return json({ batch }, { status: 201 });
});

/** The session's batches with their counts and progress, oldest first. */
export const GET = route(async (req: Request, { params }: Ctx) => {
  const area = argusArea("batches");
  const session = await authorizeSession(area, (await params).id, credentialsOf(req));
  return json({ batches: await sessionBatches(area, session.id) });
});
