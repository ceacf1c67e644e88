/** Stands in for the token in the curl line until the person makes a function token (shown once). */
export const TOKEN_PLACEHOLDER = "$ARGUS_TOKEN";

/**
 * The ready-to-paste curl command that runs a session function on an image
 * over HTTP (docs/functions.md). `version` pins one version; without it the
 * latest runs.
 */
export function curlLine(origin: string, sessionId: string, name: string, version: number | null = null, token: string = TOKEN_PLACEHOLDER): string {
  const url = `${origin}/api/sessions/${encodeURIComponent(sessionId)}/functions/${encodeURIComponent(name)}/run${version === null ? "" : `?version=${version}`}`;
  return `curl -X POST -H "Authorization: Bearer ${token}" -F "file=@image.png" '${url}'`;
}
