/** Sending an HTTP case, and the rules its answer must keep (docs/api.md). */
import { headerBytes, type FuzzRequest } from "./http-cases";

/** Answers the interface documents for valid input, per route and method (docs/api.md). */
const DOCUMENTED_SUCCESS: Record<string, number[]> = {
  "POST create": [201],
  "GET list": [200],
  "HEAD list": [200],
  "GET session": [200],
  "HEAD session": [200],
  "PATCH session": [200],
  "DELETE session": [204],
  "POST uploads": [201],
  "GET uploads": [200],
  "HEAD uploads": [200],
  "POST messages": [202],
  "POST cancel": [202],
  "GET notebook": [200],
  "HEAD notebook": [200],
  "GET file": [200, 206, 304],
  "HEAD file": [200, 206, 304],
  "GET health": [200],
  "HEAD health": [200],
};

const ERROR_STATUS: Record<string, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media: 415,
  rate_limited: 429,
  unavailable: 503,
  insufficient_storage: 507,
  internal: 500,
};

export interface HttpAnswer {
  status: number;
  contentType: string | null;
  text: string;
  ms: number;
}

/** Sends one case; the answer's body is read whole (bounded by the server's own limits). */
export async function sendFuzz(base: string, req: FuzzRequest, timeoutMs = 15_000): Promise<HttpAnswer> {
  const started = performance.now();
  const res = await fetch(base + req.path, {
    method: req.method,
    headers: req.headers,
    body: req.body as BodyInit | undefined,
    redirect: "manual",
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get("content-type"), text, ms: performance.now() - started };
}

/**
 * Why an answer breaks the interface's rules, or null when it keeps them:
 * never a 5xx; a 2xx only where docs/api.md documents one; every error is
 * `{error: {code: "<type>:<surface>", message, field?}}` with the status its
 * type gives. HEAD answers have no body, so only their status is judged. A
 * Range outside the file answers 416 with Content-Range and no body (HTTP's
 * rule for byte ranges, which docs/api.md says the file route supports).
 */
export function judgeHttp(req: FuzzRequest, res: HttpAnswer): { kind: string; detail: string } | null {
  const key = `${req.method} ${req.kind}`;
  const what = (() => {
    try {
      return (JSON.parse(res.text) as { error?: { code?: string } }).error?.code ?? res.contentType ?? "no body";
    } catch {
      return res.contentType ?? "no body";
    }
  })();
  if (res.status >= 500) return { kind: `${res.status} (${what}) on ${key}`, detail: `${req.label} → ${res.status} ${res.contentType} ${res.text.slice(0, 120)}` };
  if (res.status < 400) {
    if ((DOCUMENTED_SUCCESS[key] ?? []).includes(res.status)) return null;
    return { kind: `undocumented ${res.status} on ${key}`, detail: `${req.label} → ${res.status} ${res.text.slice(0, 120)}` };
  }
  if (res.status === 416 && req.kind === "file" && req.headers.range) return null;
  // Node's HTTP parser refuses a request line plus headers over 16 KB before any route sees it.
  if (res.status === 431 && headerBytes(req) > 16 * 1024 - 512) return null;
  if (req.method === "HEAD") return null;
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    return { kind: `non-JSON ${res.status} on ${key}`, detail: `${req.label} → ${res.status} ${res.contentType} ${JSON.stringify(res.text.slice(0, 120))}` };
  }
  const error = (body as { error?: { code?: unknown; message?: unknown; field?: unknown } } | null)?.error;
  const code = typeof error?.code === "string" ? error.code : "";
  const m = /^([a-z_]+):([a-z]+)$/.exec(code);
  if (!error || !m || typeof error.message !== "string" || error.message.length === 0 || (error.field !== undefined && typeof error.field !== "string")) {
    return { kind: `bad error shape on ${key}`, detail: `${req.label} → ${res.status} ${res.text.slice(0, 160)}` };
  }
  if (ERROR_STATUS[m[1]!] !== res.status) return { kind: `status ${res.status} for code ${code}`, detail: `${req.label} → ${res.text.slice(0, 160)}` };
  if (!/json/.test(res.contentType ?? "")) return { kind: `error without JSON content-type on ${key}`, detail: req.label };
  return null;
}
