import { ArgusError } from "@/lib/foundation/errors";

/** What a person reads when the database cannot be reached (HTTP 503, socket acks, health). */
export const DATABASE_UNAVAILABLE_MESSAGE =
  "The database cannot be reached right now, so nothing was saved. Try again in a moment.";

const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EPIPE"]);
/** SQLSTATEs of a server going away: admin/crash shutdown, "cannot connect now", too many connections. */
const SERVER_GONE = new Set(["57P01", "57P02", "57P03", "53300"]);

/**
 * True when an error from the database driver means "the database is not
 * there" rather than "this statement is wrong": the first is worth a 503 and a
 * retry, the second is a bug worth a 500 and a log line.
 */
export function isConnectionFailure(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === "string") {
    if (NETWORK_CODES.has(code) || SERVER_GONE.has(code)) return true;
    // Class 08: connection exception.
    if (/^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  return (
    typeof message === "string" &&
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connect ECONNREFUSED/i.test(message)
  );
}

/** Turns a driver error into the typed 503 when the database is unreachable; anything else passes through. */
export function asDatabaseError(error: unknown): unknown {
  if (!isConnectionFailure(error)) return error;
  return new ArgusError("unavailable:db", DATABASE_UNAVAILABLE_MESSAGE, { cause: error, retryAfterSeconds: 5 });
}
