import type { z } from "zod";
import { diskFullError, isDiskFull } from "@/lib/engines/db/disk-space";
import { ArgusError, isArgusError, statusOf, toErrorBody } from "@/lib/foundation/errors";
import type { Credentials } from "@/lib/features/sessions/service";
import { bearerToken, browserCookieName, isSameOrigin, readCookies } from "./auth";
import { BROWSER_PROOF_HEADER, provenBrowsers } from "./browser-proof";
import { secureCookiesOn } from "./context";
import { DISCARD_LIMIT_BYTES, discardRest, discardUnreadBody } from "./discard-body";

export function json(body: unknown, init?: ResponseInit): Response {
  const headers = new Headers(init?.headers);
  headers.set("content-type", "application/json; charset=utf-8");
  headers.set("cache-control", "no-store");
  return new Response(JSON.stringify(body), { ...init, headers });
}

export function errorResponse(error: unknown): Response {
  if (isArgusError(error)) {
    const retryAfter = error.retryAfterSeconds;
    const headers = typeof retryAfter === "number" ? { "retry-after": String(Math.max(1, Math.ceil(retryAfter))) } : undefined;
    return json(toErrorBody(error), { status: statusOf(error), headers });
  }
  console.error("[argus] unexpected error in a route:", error);
  const internal = new ArgusError("internal:api", "Something went wrong on the server; the error was logged.");
  return json(toErrorBody(internal), { status: 500 });
}

/** Wraps a route so that every thrown error becomes a typed JSON answer. */
export function route<A extends unknown[]>(
  handler: (...args: A) => Promise<Response> | Response,
): (...args: A) => Promise<Response> {
  return async (...args: A) => {
    try {
      return await handler(...args);
    } catch (error) {
      // Refused before its body was read: read it first, so the answer arrives (see discard-body.ts).
      if (args[0] instanceof Request) await discardUnreadBody(args[0]);
      return errorResponse(error);
    }
  };
}

/** Names the first failing field the way a person would read it: `media.2`, `content`. */
export function zodProblem(error: z.ZodError): { field: string; message: string } {
  const issue = error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.map(String).join(".") : "body";
  // A check written as a sentence for a person (`params: { sentence: true }`) is passed on as it is.
  if (issue?.code === "custom" && (issue.params as { sentence?: unknown } | undefined)?.sentence === true) return { field, message: issue.message };
  return { field, message: `${field}: ${issue?.message ?? "invalid value"}` };
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown, surface: "api" | "socket" = "api"): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const { field, message } = zodProblem(result.error);
    throw new ArgusError(`bad_request:${surface}`, message, { field });
  }
  return result.data;
}

const MAX_JSON_BYTES = 1024 * 1024;

export async function readJson<S extends z.ZodType>(req: Request, schema: S): Promise<z.infer<S>> {
  const type = req.headers.get("content-type") ?? "";
  if (!type.toLowerCase().includes("application/json")) {
    throw new ArgusError("unsupported_media:api", "Send the body as JSON with 'Content-Type: application/json'.");
  }
  const text = await readCapped(req, MAX_JSON_BYTES, "The JSON body is larger than 1 MB.");
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(text));
  } catch {
    throw new ArgusError("bad_request:api", "The body is not valid JSON.", { field: "body" });
  }
  return parseWith(schema, value);
}

/**
 * Reads a request body but stops at `limit` bytes, so an oversized or endless
 * upload is refused without being held in memory first.
 */
export async function readCapped(req: Request, limit: number, tooLarge: string): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) {
    // The route wrapper reads and discards the body before answering.
    throw new ArgusError("payload_too_large:api", tooLarge);
  }
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      // Read the rest (bounded) before the 413 goes out, or the client may see a reset instead.
      await discardRest(reader, { bytes: DISCARD_LIMIT_BYTES });
      throw new ArgusError("payload_too_large:api", tooLarge);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

/** Cookie values read per request before the proof picks (the request header's size bounds them anyway). */
const PLANTED_COPIES_READ = 64;

export function credentialsOf(req: Request): Credentials {
  const h = req.headers;
  const method = req.method.toUpperCase();
  const write = !(method === "GET" || method === "HEAD");
  const sameOrigin = isSameOrigin({ origin: h.get("origin"), host: h.get("host"), secFetchSite: h.get("sec-fetch-site") });
  // More than the 8 kept: planted copies are sent ahead of the person's own, which the proof then picks out.
  const cookies = readCookies(h.get("cookie"), browserCookieName(secureCookiesOn()), PLANTED_COPIES_READ);
  // A cookie another page of this host planted counts only with the proof this origin's page holds
  // (browser-proof.ts). A cross-site write is refused by its own rule (authorizeSession), which says so.
  const browsers = (write && !sameOrigin
    ? cookies
    : provenBrowsers(cookies, { fromBrowser: h.has("sec-fetch-site"), proof: h.get(BROWSER_PROOF_HEADER), write })
  ).slice(0, 8);
  return { token: bearerToken(h.get("authorization")), browsers, sameOrigin, write };
}
