import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/*
 * Secrets (session tokens, function tokens, browser identities): minted, hashed and compared here.
 * Used by the sessions, the function tokens and the vision tools' authorisation as well as by the
 * server's cookies, so it sits in the bottom tier rather than in lib/server.
 */

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

/**
 * A browser identity is minted here only (never taken from a request) and stored hashed with its
 * own prefix: a cookie value a browser held before identities were minted by the server (one it
 * may have been handed by another page) hashes to something no session is bound to.
 */
export function newBrowserIdentity(): string {
  return newSecret();
}

export function hashBrowserIdentity(identity: string): string {
  return createHash("sha256").update(`argus-browser-v2\0${identity}`).digest("hex");
}

export function browserIdentityMatches(identity: string, storedHash: string): boolean {
  const a = Buffer.from(hashBrowserIdentity(identity), "hex");
  const b = Buffer.from(storedHash, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}
