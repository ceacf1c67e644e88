import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Cookies ignore ports (and, without `__Host-`, a sibling subdomain may set them too), so any
 * page on this host can give a browser an `argus_browser` value: even one Argus issued to the
 * attacker for the attacker's own chat. The person's browser would then open that chat by
 * cookie, and what they type there lands where the attacker holds the bearer token.
 *
 * What another port cannot write is this origin's own storage. So each identity comes with a
 * proof that POST /api/sessions hands to the page that created it (lib/client/browser-proof.ts
 * keeps it in localStorage and sends it as a header): a browser's request counts a cookie only
 * with the proof that belongs to it. Reads without the header stay open to the cookie alone, as
 * an <img> or a download link cannot send one (and reading the planter's own chat harms nobody).
 * Requests that are not from a browser (no Sec-Fetch-Site) are not checked: no other page can
 * write into their cookie jar. Browsers older than Sec-Fetch-Site (Safari before 16.4) are not
 * protected by this rule.
 */
export const BROWSER_PROOF_HEADER = "x-argus-browser-proof";

/** The proof of a browser identity (derived from it, so nothing new is stored). */
export function browserProofOf(identity: string): string {
  return createHash("sha256").update(`argus-browser-proof-v1\0${identity}`).digest("base64url");
}

export function browserProofMatches(identity: string, proof: string): boolean {
  const a = Buffer.from(browserProofOf(identity));
  const b = Buffer.from(proof);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The cookie values a request may use: see the comment above. */
export function provenBrowsers(
  browsers: readonly string[],
  request: { fromBrowser: boolean; proof: string | null; write: boolean },
): string[] {
  if (!request.fromBrowser) return [...browsers];
  if (request.proof === null && !request.write) return [...browsers];
  const proof = request.proof ?? "";
  return browsers.filter((b) => browserProofMatches(b, proof));
}
