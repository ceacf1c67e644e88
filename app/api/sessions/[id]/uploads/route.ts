import { ArgusError } from "@/lib/foundation/errors";
import { filesOfSession } from "@/lib/engines/db/files";
import { storeUpload, uploadView } from "@/lib/engines/files/store-upload";
import { argusArea } from "@/lib/server/areas";
import { credentialsOf, json, route } from "@/lib/server/http";
import { isMultipartForm, MULTIPART_ENVELOPE_BYTES, ONE_FILE_FORM_PARTS, readCappedForm, requiredFile } from "@/lib/server/multipart";
import { authorizeSession } from "@/lib/features/sessions/service";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string }> };

export const POST = route(async (req: Request, { params }: Ctx) => {
  const area = argusArea("sessions");
  const session = await authorizeSession(area, (await params).id, credentialsOf(req));
  area.disk.assertRoom("upload");
  if (!isMultipartForm(req)) {
    throw new ArgusError("unsupported_media:upload", "Send the file as multipart/form-data in a field named 'file'.", {
      field: "file",
    });
  }
  const limitMb = Math.round(area.config.limits.maxUploadBytes / 1024 / 1024);
  const form = await readCappedForm(req, {
    cap: area.config.limits.maxUploadBytes + MULTIPART_ENVELOPE_BYTES,
    tooLarge: `The upload is larger than the ${limitMb} MB limit.`,
    field: "file",
    maxParts: ONE_FILE_FORM_PARTS,
  });
  const { bytes, filename } = await requiredFile(form, "file", "file");
  const view = await storeUpload(area, session, { bytes, filename });
  return json(view, { status: 201 });
});

/** The session's uploads (not the pictures its code generated), oldest first. */
export const GET = route(async (req: Request, { params }: Ctx) => {
  const area = argusArea("sessions");
  const session = await authorizeSession(area, (await params).id, credentialsOf(req));
  const uploads = (await filesOfSession(area.db, session.id)).filter((f) => f.origin === "upload").map(uploadView);
  return json({ uploads });
});
