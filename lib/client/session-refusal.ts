/**
 * When the server refuses a session to this browser. Both the HTTP API and
 * the socket answer the same way for "another browser's chat" and "a chat
 * that no longer exists" (so ids can't be probed), and the page says so in
 * plain words instead of showing the API's wording or retrying forever.
 */
import { ApiError } from "./api";

const REFUSED_STATUS = new Set([401, 403, 404]);
const REFUSED_KIND = new Set(["unauthorized", "forbidden", "not_found"]);

/** An HTTP answer to loading a session that means "not yours, or gone". */
export function isRefusedSession(error: unknown): boolean {
  return error instanceof ApiError && REFUSED_STATUS.has(error.status);
}

/** A socket connect_error from Argus's middleware that means the same (its `data.code` is e.g. "forbidden:session"). */
export function isSocketRefusal(error: unknown): boolean {
  const code = (error as { data?: { code?: unknown } } | null)?.data?.code;
  return typeof code === "string" && REFUSED_KIND.has(code.split(":")[0] ?? "");
}
