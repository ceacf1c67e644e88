/**
 * Recognising a network failure in an error's cause chain, so the person reads
 * "connect ECONNREFUSED 127.0.0.1:9" or "the connection closed mid-reply" instead of "fetch failed".
 */

/** Network-level codes worth naming to the person instead of "fetch failed". */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "ConnectionRefused",
  "ConnectionClosed",
  "FailedToOpenSocket",
]);

/** The most specific network reason in a cause chain: "connect ECONNREFUSED 127.0.0.1:9". */
export function networkReason(error: unknown): { code?: string; text: string } | undefined {
  const seen = new Set<unknown>();
  let current: unknown = error;
  let found: { code?: string; text: string } | undefined;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && NETWORK_CODES.has(code)) found = { code, text: current.message || code };
    else if (current.message === "terminated" || /other side closed|socket hang up/i.test(current.message)) {
      found ??= { text: current.message };
    }
    current = current.cause;
  }
  return found;
}
