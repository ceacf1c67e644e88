import { ArgusError } from "@/lib/errors";
import type { BatchInput } from "@/lib/batches/batch-intake";
import { sessionBatches, startBatch } from "@/lib/batches/service";
import { CreateBatchFormSchema, CreateBatchJsonSchema } from "@/lib/protocol/batches";
import { getArgus } from "@/lib/server/context";
import { credentialsOf, json, parseWith, readJson, route } from "@/lib/server/http";
import { filesIn, isMultipartForm, ONE_FILE_FORM_PARTS, readCappedForm } from "@/lib/server/multipart";
import { authorizeSession } from "@/lib/sessions/service";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string }> };

/**
 * The whole multipart body is read before it is parsed, so it is capped:
 * larger sets go in as session uploads first (then JSON `uploadIds`), or in parts.
 */
const MAX_BATCH_BODY_BYTES = 512 * 1024 * 1024;

/**
 * Starts a batch run of a session function. JSON `{functionName, functionVersion?, uploadIds}`
 * runs it on session uploads; multipart with `functionName`, `functionVersion?` and files in
 * `files` (a folder's) and/or `zip` runs it on those. → 201 {batch}
 */
export const POST = route(async (req: Request, { params }: Ctx) => {
  const core = getArgus();
  const session = await authorizeSession(core, (await params).id, credentialsOf(req));
  core.disk.assertRoom("upload");
  const type = (req.headers.get("content-type") ?? "").toLowerCase();
  if (type.includes("application/json")) {
    const body = await readJson(req, CreateBatchJsonSchema);
    const batch = await startBatch(core, session.id, { name: body.functionName, version: body.functionVersion }, { kind: "uploads", uploadIds: body.uploadIds });
    return json({ batch }, { status: 201 });
  }
  if (!isMultipartForm(req)) {
    throw new ArgusError("unsupported_media:api", "Send JSON with uploadIds, or multipart/form-data with files in 'files' or a zip in 'zip'.");
  }
  const form = await readCappedForm(req, {
    cap: MAX_BATCH_BODY_BYTES,
    tooLarge: `The batch is larger than ${MAX_BATCH_BODY_BYTES / 1024 / 1024} MB; upload the files first and pick them, or send them in parts.`,
    field: "files",
    // Every file a batch may take, and its fields beside them (ONE_FILE_FORM_PARTS is room enough).
    maxParts: core.config.batches.maxFiles + ONE_FILE_FORM_PARTS,
  });
  const fields = parseWith(CreateBatchFormSchema, {
    functionName: form.get("functionName") ?? undefined,
    ...(form.get("functionVersion") ? { functionVersion: form.get("functionVersion") } : {}),
  });
  const input: BatchInput = { kind: "files", files: await filesIn(form, "files"), zips: await filesIn(form, "zip") };
  const batch = await startBatch(core, session.id, { name: fields.functionName, version: fields.functionVersion }, input);
  return json({ batch }, { status: 201 });
});

/** The session's batches with their counts and progress, oldest first. */
export const GET = route(async (req: Request, { params }: Ctx) => {
  const core = getArgus();
  const session = await authorizeSession(core, (await params).id, credentialsOf(req));
  return json({ batches: await sessionBatches(core, session.id) });
});
