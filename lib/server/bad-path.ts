import type { IncomingMessage, ServerResponse } from "node:http";
import { bearerToken, BROWSER_COOKIE, readCookie, SECURE_BROWSER_COOKIE } from "./auth";

/**
 * Next decodes route parameters before any route runs and answers a path
 * that is not valid percent-encoding (e.g. `/api/sessions/%E0%A4%A`) with a
 * plain-text 500. Argus answers such an /api path the way it answers any id
 * that opens nothing: 401 without credentials, 403 with them, as JSON.
 * Returns true when it answered.
 */
export function refuseUndecodablePath(req: IncomingMessage, res: ServerResponse): boolean {
  const pathname = (req.url ?? "/").split("?")[0] ?? "/";
  if (!pathname.startsWith("/api/")) return false;
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    const credentials = bearerToken(req.headers.authorization) ?? readCookie(req.headers.cookie, BROWSER_COOKIE) ?? readCookie(req.headers.cookie, SECURE_BROWSER_COOKIE);
    const body = credentials
      ? { error: { code: "forbidden:session", message: "This session does not exist or your credentials do not open it." } }
      : { error: { code: "unauthorized:session", message: "This session needs its token: send 'Authorization: Bearer <token>' or open it from the browser that created it." } };
    res.writeHead(credentials ? 403 : 401, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
    res.end(req.method === "HEAD" ? undefined : JSON.stringify(body));
    return true;
  }
}
