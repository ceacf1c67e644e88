import { z } from "zod";
import type { ArgusConfig } from "@/lib/foundation/config";
import { ArgusError } from "@/lib/foundation/errors";
import { processUpload } from "@/lib/engines/files/process-upload";
import { toolError } from "./errors";
import type { VisionTools } from "./port";

/**
 * One neural tool call, the same for every surface: the kernel's bridge, `POST /api/tools/:name`
 * and so exported code. The engine validates the keyword arguments against the tool's schema
 * and runs the model off the event loop; this turns its refusals into typed HTTP errors.
 */
export const ToolNameSchema = z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, "not a tool name");

const ParamsObject = z.record(z.string(), z.unknown());

/** The `params` form field: absent means no arguments; otherwise a JSON object (400 naming `params`). Pure. */
export function parseToolParams(value: FormDataEntryValue | null): Record<string, unknown> {
  if (value === null) return {};
  if (typeof value !== "string") throw new ArgusError("bad_request:tool", "params must be a JSON text field, not a file.", { field: "params" });
  let parsed: unknown;
  try {
    parsed = value.trim() === "" ? {} : JSON.parse(value);
  } catch {
    throw new ArgusError("bad_request:tool", "params is not valid JSON: send an object of the tool's keyword arguments, e.g. {\"box_threshold\": 0.4}.", { field: "params" });
  }
  const object = ParamsObject.safeParse(parsed);
  if (!object.success || Array.isArray(parsed)) {
    throw new ArgusError("bad_request:tool", "params must be a JSON object of the tool's keyword arguments, e.g. {\"labels\": [\"car\"]}.", { field: "params" });
  }
  return object.data;
}

/** 404 for a name the engine does not serve, before any image is read. */
export function assertKnownTool(vision: VisionTools, name: string): void {
  if (!vision.list().some((tool) => tool.name === name)) {
    throw new ArgusError("not_found:tool", `There is no vision tool named ${name}. GET /api/tools lists them.`);
  }
}

/** The image of an HTTP call, checked exactly as an upload is (real type, size and pixel limits, name), but not kept. */
export async function checkedToolImage(config: Pick<ArgusConfig, "limits" | "python" | "tmpDir">, bytes: Uint8Array, filename: string): Promise<Buffer> {
  const processed = await processUpload({
    bytes,
    filename: filename || "image",
    limits: { maxBytes: config.limits.maxUploadBytes, maxPixels: config.limits.maxImagePixels, maxVideoSeconds: config.limits.maxVideoSeconds },
    python: config.python,
    tmpDir: config.tmpDir,
  });
  if (processed.kind !== "image") {
    throw new ArgusError("unsupported_media:upload", "Vision tools run on one image; send a PNG, JPEG, WebP or similar picture.", { field: "image" });
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Runs the tool; the engine's refusals come back as ArgusErrors (see toolError). */
export async function callTool(
  vision: VisionTools,
  name: string,
  image: Buffer,
  params: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<{ result: unknown; seconds: number }> {
  try {
    const { result, seconds } = await vision.call(name, image, params, { signal });
    return { result, seconds };
  } catch (error) {
    throw toolError(name, error);
  }
}
