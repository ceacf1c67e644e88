import { ArgusError } from "@/lib/foundation/errors";
import { visionErrorOf } from "./port";

/**
 * The HTTP meaning of what the engine refused or failed at, worded for the person calling:
 * an unknown tool is a 404, bad keyword arguments a 400 naming `params.<field>`, a full
 * inference queue a 429 with Retry-After, models that cannot load a 503. Anything that is not
 * the engine's error is passed on unchanged (the route wrapper makes it a 500). Pure.
 */
export function toolError(name: string, error: unknown): unknown {
  const vision = visionErrorOf(error);
  if (!vision) return error;
  switch (vision.code) {
    case "unknown_tool":
      return new ArgusError("not_found:tool", `There is no vision tool named ${name}. GET /api/tools lists them.`);
    case "bad_params":
      return new ArgusError("bad_request:tool", `${name}: ${vision.message}`, { field: vision.field && vision.field !== "params" ? `params.${vision.field}` : "params" });
    case "bad_image":
      return new ArgusError("bad_request:tool", `${name}: ${vision.message}`, { field: "image" });
    case "busy":
      return new ArgusError("rate_limited:tool", `The vision models are busy with other calls; try ${name} again shortly.`, {
        retryAfterSeconds: vision.retryAfterSeconds ?? 1,
      });
    case "aborted":
      return new ArgusError("unavailable:tool", `${name} was stopped before it finished.`);
    case "unavailable":
      return new ArgusError("unavailable:tool", `${name} cannot run on this server: ${vision.message}`);
    case "failed":
    default:
      return new ArgusError("internal:tool", `${name} failed: ${vision.message}`);
  }
}
