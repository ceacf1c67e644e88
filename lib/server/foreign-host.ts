import type { IncomingMessage, ServerResponse } from "node:http";
import { isAllowedHost, type AllowedHosts } from "./allowed-hosts";

/**
 * Answers a request addressed to a name Argus is not served under (DNS
 * rebinding) before any route runs, so nothing is created or read.
 * Returns true when it answered.
 */
export function refuseForeignHost(req: IncomingMessage, res: ServerResponse, allowed: AllowedHosts): boolean {
  if (isAllowedHost(req.headers.host, allowed)) return false;
  const body = {
    error: {
      code: "forbidden:api",
      message: "This address is not one Argus is served under. Open Argus by its own address, or add this name to ARGUS_ALLOWED_HOSTS.",
    },
  };
  res.writeHead(403, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  res.end(req.method === "HEAD" ? undefined : JSON.stringify(body));
  return true;
}
