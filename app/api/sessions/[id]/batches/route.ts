import { mkdir, mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { ArgusError } from "@/lib/errors";
import type { ArrivedFile } from "@/lib/batches/batch-intake";
import { existingFunction, sessionBatches, startBatch } from "@/lib/batches/service";
import { CreateBatchFormSchema, CreateBatchJsonSchema } from "@/lib/protocol/batches";
import { argusArea } from "@/lib/server/areas";
import { credentialsOf, json, parseWith, readJson, route } from "@/lib/server/http";
import { isMultipartForm, ONE_FILE_FORM_PARTS } from "@/lib/server/multipart";
import { spoolForm, type SpooledForm } from "@/lib/server/multipart-spool";
import { authorizeSession } from "@/lib/sessions/service";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string }> };

/**
 * The multipart body is spooled to disk as it arrives (never held whole), and capped:
 * larger sets go in as session uploads first (then JSON `uploadIds`), or in parts.
 */
const MAX_BATCH_BODY_BYTES = 512 * 1024 * 1024;

/**
 * Starts a batch run of a session function. JSON `{functionName, functionVersion?, uploadIds}`
 * runs it on session uploads; multipart with `functionName`, `functionVersion?` and files in
 * `files` (a folder's) and/or `zip` runs it on those. → 201 {batch}
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
  await mkdir(area.config.tmpDir, { recursive: true });
  const spool = await mkdtemp(path.join(area.config.tmpDir, "batch-form-"));
  try {
    const form = await spoolForm(
      req,
      {
        cap: MAX_BATCH_BODY_BYTES,
        tooLarge: `The batch is larger than ${MAX_BATCH_BODY_BYTES / 1024 / 1024} MB; upload the files first and pick them, or send them in parts.`,
        field: "files",
        // Every file a batch may take, and its fields beside them (ONE_FILE_FORM_PARTS is room enough).
        maxParts: area.config.batches.maxFiles + ONE_FILE_FORM_PARTS,
        // Asked again as the body arrives: the check above held only when the request began.
        checkRoom: () => area.disk.assertRoom("upload"),
      },
      spool,
      // Checked as soon as it arrives: no reading 512 MB for a function that does not exist.
      async (name, value) => {
        if (name === "functionName") await existingFunction(area, session.id, { name: value });
      },
    );
    const fields = parseWith(CreateBatchFormSchema, {
      functionName: fieldOf(form, "functionName"),
      ...(fieldOf(form, "functionVersion") ? { functionVersion: fieldOf(form, "functionVersion") } : {}),
    });
    const batch = await startBatch(area, session.id, { name: fields.functionName, version: fields.functionVersion }, { kind: "files", files: filesOf(form, "files"), zips: filesOf(form, "zip") });
    return json({ batch }, { status: 201 });
  } finally {
    await rm(spool, { recursive: true, force: true });
  }
});

function fieldOf(form: SpooledForm, name: string): string | undefined {
  return form.fields.find((f) => f.name === name)?.value;
}

/** Every file in `field`, in the order sent (none is fine); a plain text value there is a 400. */
function filesOf(form: SpooledForm, field: string): ArrivedFile[] {
  if (form.fields.some((f) => f.name === field)) throw new ArgusError("bad_request:upload", `The field '${field}' must hold files.`, { field });
  return form.files.filter((f) => f.field === field).map((f) => ({ filename: f.filename, file: f.file, size: f.size }));
}

/** The session's batches with their counts and progress, oldest first. */
export const GET = route(async (req: Request, { params }: Ctx) => {
  const area = argusArea("batches");
  const session = await authorizeSession(area, (await params).id, credentialsOf(req));
  return json({ batches: await sessionBatches(area, session.id) });
});
