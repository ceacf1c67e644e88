/**
 * The cookie that identifies one browser; its sessions are listed by GET /api/sessions. With
 * Secure cookies on (ARGUS_SECURE_COOKIES=1) it is `__Host-argus_browser`: a browser accepts a
 * cookie of that name only from this very host, Secure, Path=/ and without Domain, so a sibling
 * subdomain cannot plant one, and the unprefixed name is then ignored.
 */
export const BROWSER_COOKIE = "argus_browser";
export const SECURE_BROWSER_COOKIE = "__Host-argus_browser";

export function browserCookieName(secure: boolean): string {
  return secure ? SECURE_BROWSER_COOKIE : BROWSER_COOKIE;
}

export function bearerToken(authorization: string | null | undefined): string | null {
  if (!authorization) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return match?.[1] ?? null;
}

/**
 * Every value of cookie `name`, in the order the browser sent them. A browser sends one per path
 * and domain it holds under that name, and a page on another port of this host (or a sibling
 * subdomain) can add one of its own: several values are normal input, never "the first wins".
 * Undecodable values are dropped; at most `max` (8) are kept. A browser request reads more
 * (http.ts credentialsOf) and keeps the one its proof names, so copies planted ahead of the
 * person's own cannot push it out.
 */
export function readCookies(header: string | null | undefined, name: string, max = 8): string[] {
  if (!header) return [];
  const values: string[] = [];
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    try {
      const value = decodeURIComponent(part.slice(eq + 1).trim());
      if (value) values.push(value);
    } catch {
      continue;
    }
    if (values.length === max) break;
  }
  return values;
}

export function readCookie(header: string | null | undefined, name: string): string | null {
  return readCookies(header, name)[0] ?? null;
}

export function browserCookieHeader(value: string, secure: boolean): string {
  const attrs = [
    `${browserCookieName(secure)}=${value}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${60 * 60 * 24 * 365}`,
  ];
  if (secure) attrs.push("Secure");
  return attrs.join("; ");
}

/**
 * Deletes browser cookies another page of this host set on a narrower path (they are sent before
 * Argus's own and would shadow it). Only possible for the unprefixed name: a `__Host-` cookie
 * always has Path=/.
 */
export function shadowCookieRemovals(): string[] {
  return ["/api", "/api/", "/api/sessions"].map((p) => `${BROWSER_COOKIE}=; Path=${p}; Max-Age=0; HttpOnly; SameSite=Lax`);
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
