import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** The cookie that identifies one browser; its sessions are listed by GET /api/sessions. */
export const BROWSER_COOKIE = "argus_browser";

export function newSecret(): string {
  return randomBytes(32).toString("base64url");
}

/** Secrets are stored hashed: a copied database file grants no access. */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

export function secretMatches(secret: string, storedHash: string): boolean {
  const a = Buffer.from(hashSecret(secret), "hex");
  const b = Buffer.from(storedHash, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}

export function bearerToken(authorization: string | null | undefined): string | null {
  if (!authorization) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return match?.[1] ?? null;
}

export function readCookie(header: string | null | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(value);
      } catch {
        return null;
      }
    }
  }
  return null;
}

export function browserCookieHeader(value: string, secure: boolean): string {
  const attrs = [
    `${BROWSER_COOKIE}=${value}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${60 * 60 * 24 * 365}`,
  ];
  if (secure) attrs.push("Secure");
  return attrs.join("; ");
}

/**
 * A request authorised only by its cookie must come from Argus's own pages:
 * the browser attaches cookies to cross-site requests too, so without this a
 * foreign page could post into a session (CSRF). Bearer tokens are not
 * attached automatically, so they need no such check.
 */
export function isSameOrigin(headers: {
  origin: string | null;
  host: string | null;
  secFetchSite: string | null;
}): boolean {
  if (headers.secFetchSite) {
    return headers.secFetchSite === "same-origin" || headers.secFetchSite === "none";
  }
  if (!headers.origin) return false;
  try {
    return new URL(headers.origin).host === headers.host;
  } catch {
    return false;
  }
}
