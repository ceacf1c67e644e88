import { hashBrowserIdentity, newBrowserIdentity } from "@/lib/server/auth";

/** The browser identity a new session is bound to, and whether it was minted now (then the cookie is set). */
export interface NewSessionIdentity {
  identity: string;
  issued: boolean;
}

/**
 * Which browser identity a new session (POST /api/sessions) is bound to. The request's cookie is
 * kept only when it is the one value the browser sent and the server minted it before (some
 * session is bound to it: `isRecorded`). Anything else — no cookie, a value the server never
 * issued (planted by another page of this host), several values at once (a planted one beside
 * Argus's own, and no way to tell which is which) — gets a fresh identity, so a chat is never
 * bound to a value someone else chose or knows.
 */
export async function identityForNewSession(
  presented: readonly string[],
  isRecorded: (identityHash: string) => Promise<boolean>,
): Promise<NewSessionIdentity> {
  const [only] = presented;
  if (presented.length === 1 && only && (await isRecorded(hashBrowserIdentity(only)))) return { identity: only, issued: false };
  return { identity: newBrowserIdentity(), issued: true };
}
