import { ArgusError } from "@/lib/errors";
import { filesOfSession } from "@/lib/db/files";
import { storeUpload, uploadView } from "@/lib/files/store-upload";
import { getArgus } from "@/lib/server/context";
import { credentialsOf, json, readCapped, route } from "@/lib/server/http";
import { authorizeSession } from "@/lib/sessions/service";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string }> };

/** Room for the multipart envelope around the file itself. */
const MULTIPART_OVERHEAD = 64 * 1024;

export const POST = route(async (req: Request, { params }: Ctx) => {
  const core = getArgus();
  const session = await authorizeSession(core, (await params).id, credentialsOf(req));
  core.disk.assertRoom("upload");
  const type = req.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) {
    throw new ArgusError("unsupported_media:upload", "Send the file as multipart/form-data in a field named 'file'.", {
      field: "file",
    });
  }
  const limitMb = Math.round(core.config.limits.maxUploadBytes / 1024 / 1024);
  const raw = await readCapped(
    req,
    core.config.limits.maxUploadBytes + MULTIPART_OVERHEAD,
    `The upload is larger than the ${limitMb} MB limit.`,
  );
  let form: FormData;
  try {
    form = await new Response(raw, { headers: { "content-type": type } }).formData();
  } catch {
    throw new ArgusError("bad_request:upload", "The multipart body could not be read.", { field: "file" });
  }
  const file = form.get("file");
  if (!(file instanceof Blob)) {
    throw new ArgusError("bad_request:upload", "The form has no file in a field named 'file'.", { field: "file" });
  }
  const filename = "name" in file && typeof file.name === "string" ? file.name : "";
  const view = await storeUpload(core, session, { bytes: new Uint8Array(await file.arrayBuffer()), filename });
  return json(view, { status: 201 });
});

/** The session's uploads (not the pictures its code generated), oldest first. */
export const GET = route(async (req: Request, { params }: Ctx) => {
  const core = getArgus();
  const session = await authorizeSession(core, (await params).id, credentialsOf(req));
  const uploads = (await filesOfSession(core.db, session.id)).filter((f) => f.origin === "upload").map(uploadView);
  return json({ uploads });
});
