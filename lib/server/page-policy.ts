/**
 * The security headers of Argus's pages (proxy.ts sets them on every page response).
 *
 * Scripts run only with this response's nonce (Next puts it on its own scripts: it reads it
 * from the request's Content-Security-Policy) or when loaded by such a script ('strict-dynamic'):
 * an injected <script> or inline handler does not run. No page may be framed (clickjacking).
 * Styles allow inline `style` attributes, which React sets; no script can come in through them.
 */
export function pagePolicy(nonce: string, options: { dev: boolean }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "media-src 'self' blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Headers every page response carries beside the policy. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  // Older browsers that ignore frame-ancestors.
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  // A link out of a chat tells the other site nothing of the session's address.
  "referrer-policy": "no-referrer",
};

/** A fresh, unguessable nonce for one page response. */
export function newNonce(): string {
  const bytes = new Uint8Array(18);
  crypto.getRandomValues(bytes);
  return Buffer.from(bytes).toString("base64");
}
