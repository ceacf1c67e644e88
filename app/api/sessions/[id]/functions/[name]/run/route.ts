import { z } from "zod";
import { ArgusError } from "@/lib/foundation/errors";
import { runAnswer } from "@/lib/features/functions/run-answer";
import { callSessionFunction, getVersion, inputFromBytes, inputFromUpload } from "@/lib/features/functions/session-functions";
import { argusArea } from "@/lib/server/areas";
import { credentialsOf, json, parseWith, readJson, route } from "@/lib/server/http";
import { isMultipartForm, MULTIPART_ENVELOPE_BYTES, ONE_FILE_FORM_PARTS, readCappedForm, requiredFile } from "@/lib/server/multipart";
import { authorizeFunctionCall, grantedImages } from "@/lib/features/sessions/function-tokens";
import { FunctionNameSchema, VersionSchema } from "../params";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string; name: string }> };

const UploadIdBody = z.object({ uploadId: z.string().min(1).max(100) }).strict();

/** A function token runs functions on the bytes it sends: the session's uploads stay the session's. */
function uploadsNeedSessionCredentials(): ArgusError {
  return new ArgusError(
    "forbidden:function",
    "A function token runs functions on the image it sends (multipart, in a field named 'file'); running on one of the session's uploads by id needs the session's own credentials.",
  );
}

/**
 * Runs the session's function (latest version, or `?version=`) on one image
 * in an isolated kernel: multipart with the image in a field named "file", or
 * JSON {uploadId} naming one of the session's uploads (not with a function token). See run-answer.ts for
 * the answer and docs/functions.md for the errors.
 */
export const POST = route(async (req: Request, { params }: Ctx) => {
  const area = argusArea("functions");
  const p = await params;
  // The session's own credentials, or a function token made for scripts in the Code tab.
  const caller = await authorizeFunctionCall(area, p.id, credentialsOf(req));
  const session = caller.session;
  // The pictures a function saves are stored: refused (507) like uploads when the disk is almost full.
  area.disk.assertRoom("function");
  const name = parseWith(FunctionNameSchema, p.name);
  const versionParam = new URL(req.url).searchParams.get("version");
  const version = versionParam === null ? null : parseWith(VersionSchema, versionParam);
  // An unknown function or version is a 404 before the image is even read.
  const kept = await getVersion(area, session.id, name, version);

  const type = (req.headers.get("content-type") ?? "").toLowerCase();
  let input;
  if (isMultipartForm(req)) {
    const limitMb = Math.round(area.config.limits.maxUploadBytes / 1024 / 1024);
    const form = await readCappedForm(req, {
      cap: area.config.limits.maxUploadBytes + MULTIPART_ENVELOPE_BYTES,
      tooLarge: `The image is larger than the ${limitMb} MB upload limit.`,
      field: "file",
      maxParts: ONE_FILE_FORM_PARTS,
    });
    const { bytes, filename } = await requiredFile(form, "file", "image");
    input = await inputFromBytes(area, bytes, filename);
  } else if (type.includes("application/json")) {
    if (caller.functionTokenId) throw uploadsNeedSessionCredentials();
    const body = await readJson(req, UploadIdBody);
    input = await inputFromUpload(area, session.id, body.uploadId);
  } else {
    throw new ArgusError("unsupported_media:api", "Send the image as multipart/form-data in a field named 'file', or JSON {\"uploadId\": \"…\"}.");
  }
  // No abort on client disconnect: the call is bounded by its own timeout.
  const calledAt = performance.now();
  const outcome = await callSessionFunction(area, kept, input);
  // A function token reads back the pictures its own call saved, through the URLs answered here.
  const answer = runAnswer(kept.version, { ...outcome, images: grantedImages(caller, outcome.images) }, (performance.now() - calledAt) / 1000);
  return json(answer.body, { status: answer.status });
});
