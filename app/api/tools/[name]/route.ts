import { ArgusError } from "@/lib/foundation/errors";
import { argusArea } from "@/lib/server/areas";
import { credentialsOf, json, parseWith, route } from "@/lib/server/http";
import { isMultipartForm, MULTIPART_ENVELOPE_BYTES, ONE_FILE_FORM_PARTS, readCappedForm, requiredFile } from "@/lib/server/multipart";
import { authorizeToolCall } from "@/lib/features/vision-tools/authorize";
import { assertKnownTool, callTool, checkedToolImage, parseToolParams, ToolNameSchema } from "@/lib/features/vision-tools/call-tool";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ name: string }> };

/**
 * Runs one neural vision tool on one image: multipart with the picture in `image` and, optionally,
 * the tool's keyword arguments as a JSON object in `params`. Answers `{result, seconds}`, the same
 * JSON a notebook cell gets from the tool. See docs/api.md for the errors.
 */
export const POST = route(async (req: Request, { params }: Ctx) => {
  const area = argusArea("tools");
  await authorizeToolCall(area, credentialsOf(req), req.headers.get("x-argus-session"));
  const name = parseWith(ToolNameSchema, (await params).name);
  assertKnownTool(area.vision, name);
  if (!isMultipartForm(req)) {
    throw new ArgusError("unsupported_media:api", "Send the image as multipart/form-data in a field named 'image' (and the keyword arguments as JSON in 'params').");
  }
  const limitMb = Math.round(area.config.limits.maxUploadBytes / 1024 / 1024);
  const form = await readCappedForm(req, {
    cap: area.config.limits.maxUploadBytes + MULTIPART_ENVELOPE_BYTES,
    tooLarge: `The image is larger than the ${limitMb} MB upload limit.`,
    field: "image",
    maxParts: ONE_FILE_FORM_PARTS,
  });
  const toolParams = parseToolParams(form.get("params"));
  const { bytes, filename } = await requiredFile(form, "image", "image");
  const image = await checkedToolImage(area.config, bytes, filename);
  // No abort on client disconnect: the engine bounds each call itself.
  return json(await callTool(area.vision, name, image, toolParams));
});
