/**
 * A seeded generator of hostile input for Argus's public interface, and the
 * rules its answers must follow. Used by tests/integration/fuzz.test.ts (a
 * few thousand cases) and bench/fuzz.ts (the long form).
 *
 * HTTP: random and malformed bodies (broken JSON, deep nesting, huge strings,
 * wrong types, unicode, nulls, arrays, random multipart), random ids,
 * credentials, queries and headers, on the documented routes and methods.
 * Socket.io: random handshakes, random event names and payloads, with and
 * without acks, binary, oversized payloads and raw malformed packets.
 *
 * Everything is a pure function of the seed, so a failing case can be
 * replayed: every request carries its case number and seed in `label`.
 */
import { deflateSync } from "node:zlib";
import { io, type Socket } from "socket.io-client";
import { pngChunk } from "./media";

// ---------------------------------------------------------------------------
// PRNG

/** mulberry32: small, fast, good enough to pick fuzz cases; same seed, same cases. */
export class Rng {
  private state: number;
  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  /** Picks by weight: `[[weight, value], …]`. */
  weighted<T>(items: readonly (readonly [number, T])[]): T {
    const total = items.reduce((s, [w]) => s + w, 0);
    let x = this.next() * total;
    for (const [w, v] of items) {
      if ((x -= w) < 0) return v;
    }
    return items[items.length - 1]![1];
  }
  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i += 4) {
      const v = (this.next() * 4294967296) >>> 0;
      out[i] = v & 0xff;
      if (i + 1 < n) out[i + 1] = (v >>> 8) & 0xff;
      if (i + 2 < n) out[i + 2] = (v >>> 16) & 0xff;
      if (i + 3 < n) out[i + 3] = (v >>> 24) & 0xff;
    }
    return out;
  }
  uuid(): string {
    const h = Array.from(this.bytes(16), (b) => b.toString(16).padStart(2, "0")).join("");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}

// ---------------------------------------------------------------------------
// Values

const NASTY_STRINGS = [
  "",
  " ",
  "\u0000",
  "\u0000\u0001\u0002\u001f\u007f",
  "\ud800", // lone high surrogate
  "\udfff", // lone low surrogate
  "\ud83d\udca5💥👨‍👩‍👧‍👦🏳️‍🌈",
  "\u202eevil\u202c",
  "\ufeff",
  "Zalgo: Z̷̢̛̤̦a̴̰͖l̸̙̈́g̵̙͗o̵̫̓",
  "名前テスト",
  "مرحبا",
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "javascript:alert(1)",
  "'; DROP TABLE sessions; --",
  "\" OR 1=1 --",
  "../../../../etc/passwd",
  "..\\..\\windows\\win.ini",
  "%00%2e%2e%2f",
  "${7*7}{{7*7}}",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "null",
  "undefined",
  "NaN",
  "true",
  "0",
  "-1",
  "1e309",
  "\r\n\r\nHTTP/1.1 200 OK\r\n",
  "a\nb\rc\td",
];

export function randomString(r: Rng, maxLen = 64): string {
  switch (r.int(0, 6)) {
    case 0:
      return r.pick(NASTY_STRINGS);
    case 1: {
      // Random code points, surrogates and all.
      const n = r.int(0, maxLen);
      let s = "";
      for (let i = 0; i < n; i++) s += String.fromCharCode(r.chance(0.7) ? r.int(0x20, 0x7e) : r.int(0, 0xffff));
      return s;
    }
    case 2:
      return r.pick(NASTY_STRINGS) + r.pick(NASTY_STRINGS);
    case 3:
      return "x".repeat(r.pick([1, 119, 120, 121, 20_000, 20_001, 65_536]));
    case 4:
      return r.uuid();
    case 5:
      return String.fromCodePoint(...Array.from({ length: r.int(1, 12) }, () => r.int(0x1f300, 0x1faff)));
    default:
      return Array.from({ length: r.int(1, 12) }, () => r.pick([..."abcdefghijklmnopqrstuvwxyz0123456789-_ "])).join("");
  }
}

/** A random JSON-ish value: nulls, wrong types, nested arrays and objects, huge numbers. */
export function randomValue(r: Rng, depth = 0): unknown {
  const leaf = depth > 3 || r.chance(0.5);
  if (leaf) {
    return r.weighted<() => unknown>([
      [3, () => null],
      [2, () => r.chance(0.5)],
      [3, () => r.pick([0, -1, 1, 1.5, -0, 2 ** 53, -(2 ** 53) - 2, 1e308, 5e-324, Number.MAX_SAFE_INTEGER + 2, 20_000, 20_001])],
      [6, () => randomString(r)],
      [1, () => r.int(-1e9, 1e9)],
    ])();
  }
  if (r.chance(0.5)) return Array.from({ length: r.int(0, 5) }, () => randomValue(r, depth + 1));
  const obj: Record<string, unknown> = {};
  for (let i = r.int(0, 5); i > 0; i--) obj[r.chance(0.6) ? r.pick(["role", "content", "media", "title", "afterSeq", "__proto__", "constructor", "id", "token"]) : randomString(r, 16)] = randomValue(r, depth + 1);
  return obj;
}

// ---------------------------------------------------------------------------
// HTTP cases

export interface FuzzSession {
  id: string;
  token: string;
  /** `argus_browser=…` */
  cookie: string;
  /** Upload ids of this session. */
  files: string[];
}

export interface FuzzContext {
  /** Live sessions; a case may delete one (the caller replaces it). */
  sessions: FuzzSession[];
  /** `host:port` of the server, for same-origin headers. */
  host: string;
}

export type RouteKind =
  | "create"
  | "list"
  | "session"
  | "uploads"
  | "messages"
  | "cancel"
  | "notebook"
  | "file"
  | "health";

export interface FuzzRequest {
  label: string;
  kind: RouteKind;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Uint8Array | string;
  /** The session the request names with valid credentials, if any (a 204 DELETE removes it). */
  target?: FuzzSession;
}

/** Answers the interface documents for valid input, per route and method (README "HTTP interface"). */
export const DOCUMENTED_SUCCESS: Record<string, number[]> = {
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

/** Percent-encodes every byte of the string's UTF-8 that is not unreserved (lone surrogates become U+FFFD). */
export function pct(s: string): string {
  let out = "";
  for (const b of Buffer.from(s, "utf8")) out += /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
  return out;
}

/** Ids that are not ids: malformed, encoded, oversized. Some are not even valid percent-encoding. */
function hostileId(r: Rng): string {
  return r.pick([
    "not-a-uuid",
    "00000000-0000-0000-0000-000000000000",
    pct(r.pick(NASTY_STRINGS) || "x"),
    pct(randomString(r, 40) || "y"),
    "x".repeat(r.pick([37, 1000, 4000])),
    "%E0%A4%A",
    "%ZZ",
    "%",
    "%FF",
    "%C0%AF",
    "%2F..%2F..%2Fetc%2Fpasswd",
    "%00",
    "null",
    "1",
    "-1",
    "%20",
  ]);
}

function credentials(r: Rng, ctx: FuzzContext, owner: FuzzSession): { headers: Record<string, string>; valid: boolean } {
  const other = r.pick(ctx.sessions);
  return r.weighted<() => { headers: Record<string, string>; valid: boolean }>([
    [10, () => ({ headers: { authorization: `Bearer ${owner.token}` }, valid: true })],
    [2, () => ({ headers: { cookie: owner.cookie, origin: `http://${ctx.host}`, "sec-fetch-site": "same-origin" }, valid: true })],
    [2, () => ({ headers: { cookie: owner.cookie, origin: "http://evil.example", "sec-fetch-site": "cross-site" }, valid: false })],
    [2, () => ({ headers: {}, valid: false })],
    [2, () => ({ headers: { authorization: `Bearer ${other.token}` }, valid: other === owner })],
    [1, () => ({ headers: { authorization: `Bearer ${randomString(r, 80).replace(/[^\x21-\x7e]/g, "A") || "x"}` }, valid: false })],
    [1, () => ({ headers: { authorization: r.pick(["Bearer", "Basic Zm9vOmJhcg==", "Bearer a b", "bearer\t", "Token xyz", `Bearer ${"z".repeat(8000)}`]) }, valid: false })],
    [1, () => ({ headers: { cookie: r.pick(["argus_browser=", "argus_browser=%E0%A4%A", "argus_browser", `argus_browser=${"q".repeat(3000)}`, "=; ;;; argus_browser==x"]) }, valid: false })],
  ])();
}

/** A tiny valid PNG: sometimes the fuzzer uploads something real and must get 201. */
export function tinyPng(r: Rng): Uint8Array {
  const w = r.int(1, 8);
  const h = r.int(1, 8);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 0; // greyscale
  const raw = Buffer.alloc((w + 1) * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) raw[y * (w + 1) + 1 + x] = r.int(0, 255);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", deflateSync(raw)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

function fileContent(r: Rng, maxUploadBytes: number): Uint8Array {
  return r.weighted<() => Uint8Array>([
    [3, () => r.bytes(r.int(0, 4096))],
    [2, () => tinyPng(r)],
    [2, () => tinyPng(r).subarray(0, r.int(8, 40))], // truncated
    [1, () => {
      // A PNG header claiming enormous dimensions.
      const p = Buffer.from(tinyPng(r));
      p.writeUInt32BE(r.pick([30_000, 65_535, 0x7fffffff, 0]), 16);
      p.writeUInt32BE(r.pick([30_000, 1, 0x7fffffff, 0]), 20);
      return p;
    }],
    [1, () => Buffer.concat([Buffer.from("GIF89a"), Buffer.from(r.bytes(r.int(0, 64)))])],
    [1, () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from(r.bytes(r.int(0, 256)))])],
    [1, () => Buffer.concat([Buffer.from("RIFF\0\0\0\0WEBPVP8 "), Buffer.from(r.bytes(r.int(0, 128)))])],
    [1, () => Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypmp42"), Buffer.from(r.bytes(r.int(0, 512)))])],
    [1, () => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`)],
    [1, () => r.bytes(maxUploadBytes + r.int(1, 70 * 1024))], // over the limit
  ])();
}

function filename(r: Rng): string {
  return r.pick([
    "a.png",
    "../../x.png",
    "..",
    ".",
    "/etc/passwd",
    "C:\\x.png",
    "x".repeat(300) + ".png",
    "名前.png",
    "\ud83d\udca5.png",
    "a\u0000b.png",
    "with \"quotes\".png",
    "semi;colon.png",
    " ",
    "",
    randomString(r, 40),
  ]);
}

/** A multipart body built by hand: sometimes well-formed, sometimes subtly or badly broken. */
export function randomMultipart(r: Rng, maxUploadBytes: number): { body: Uint8Array; contentType: string } {
  const boundary = r.chance(0.85) ? `----fuzz${r.int(0, 1e9)}` : r.pick(["", "x", '"quoted"', "a".repeat(71), "a".repeat(200), "é"]);
  const parts: Buffer[] = [];
  for (let i = r.int(0, 3); i >= 0; i--) {
    const field = r.weighted([[6, "file"], [1, "File"], [1, "file[]"], [1, randomString(r, 12)]] as const);
    const isFile = r.chance(0.85);
    const headers = [
      isFile
        ? `Content-Disposition: form-data; name="${field}"; filename="${filename(r).replace(/[\r\n"]/g, "_")}"`
        : `Content-Disposition: form-data; name="${field}"`,
      ...(r.chance(0.7) ? [`Content-Type: ${r.pick(["image/png", "application/octet-stream", "text/html", "image/svg+xml", "video/mp4", "", "x/y; z"])}`] : []),
    ];
    const content = isFile ? fileContent(r, maxUploadBytes) : Buffer.from(randomString(r));
    parts.push(Buffer.from(`--${boundary}\r\n${headers.join("\r\n")}\r\n\r\n`), Buffer.from(content), Buffer.from("\r\n"));
  }
  const closing = r.weighted([[8, `--${boundary}--\r\n`], [1, ""], [1, `--${boundary}\r\n`], [1, "--wrong--\r\n"]] as const);
  let body: Uint8Array = Buffer.concat([...parts, Buffer.from(closing)]);
  if (r.chance(0.05)) body = body.subarray(0, r.int(0, body.length)); // cut mid-way
  if (r.chance(0.03)) body = r.bytes(r.int(0, 2048)); // not multipart at all
  const contentType = r.weighted([
    [10, `multipart/form-data; boundary=${boundary}`],
    [1, "multipart/form-data"],
    [1, `multipart/form-data; boundary=other`],
    [1, `multipart/mixed; boundary=${boundary}`],
    [1, "application/json"],
    [1, ""],
  ] as const);
  return { body, contentType };
}

/** A JSON-ish body for the JSON routes: plausible, mutated, malformed or oversized. */
export function randomJsonBody(r: Rng, kind: RouteKind, ctx: FuzzContext, owner?: FuzzSession): string | Uint8Array {
  const plausible = (): unknown => {
    if (kind === "messages") {
      const msg: Record<string, unknown> = {
        role: r.weighted([[6, "user"], [2, "interaction_response"], [1, randomValue(r)]] as const),
        content: r.chance(0.8) ? randomString(r, 200) : randomValue(r),
      };
      if (r.chance(0.3)) {
        const pool = [...(owner?.files ?? []), ...r.pick(ctx.sessions).files, r.uuid(), "nope", ""];
        msg.media = r.chance(0.85) ? Array.from({ length: r.int(0, 22) }, () => r.pick(pool)) : randomValue(r);
      }
      if (r.chance(0.1)) msg[randomString(r, 10)] = randomValue(r);
      if (r.chance(0.1)) delete msg[r.pick(["role", "content"])];
      return msg;
    }
    const t: Record<string, unknown> = { title: r.chance(0.8) ? randomString(r, 130) : randomValue(r) };
    if (r.chance(0.1)) t[randomString(r, 10)] = randomValue(r);
    return t;
  };
  return r.weighted<() => string | Uint8Array>([
    [10, () => JSON.stringify(plausible())],
    [4, () => JSON.stringify(randomValue(r))],
    [2, () => r.pick(["", "{", "}", "{not json", "{'role': 'user'}", '{"role":"user",}', "[1,2", "nul", "undefined", "NaN", '"\\ud800"', "\ufeff{}", "{}{}", '{"a":1}garbage'])],
    [1, () => "[".repeat(r.int(1000, 100_000)) + "]".repeat(r.chance(0.5) ? 0 : 1)],
    [1, () => '{"a":'.repeat(r.int(1000, 50_000)) + "1" + "}".repeat(r.int(0, 10))],
    [1, () => JSON.stringify({ role: "user", content: "x".repeat(r.pick([1_048_550, 1_100_000])) })],
    [1, () => r.bytes(r.int(1, 2048))],
    [1, () => JSON.stringify(plausible()).slice(0, r.int(0, 30))],
  ])();
}

/** One random request against the documented interface. */
export function fuzzRequest(r: Rng, ctx: FuzzContext, n: number, opts: { maxUploadBytes: number }): FuzzRequest {
  const kind = r.weighted<RouteKind>([
    [1, "create"],
    [1, "list"],
    [4, "session"],
    [4, "uploads"],
    [5, "messages"],
    [2, "cancel"],
    [1, "notebook"],
    [4, "file"],
    [1, "health"],
  ]);
  const owner = r.pick(ctx.sessions);
  const sessionId = r.weighted<() => string>([[8, () => owner.id], [1, () => r.uuid()], [2, () => hostileId(r)], [1, () => owner.id.toUpperCase()]])();
  const idIsOwner = sessionId === owner.id;
  const cred = credentials(r, ctx, owner);
  const headers: Record<string, string> = { ...cred.headers };
  let method = "GET";
  let path = "";
  let body: Uint8Array | string | undefined;
  const jsonType = () => r.weighted([[10, "application/json"], [2, "application/json; charset=utf-8"], [1, "text/plain"], [1, ""], [1, "application/x-www-form-urlencoded"], [1, "APPLICATION/JSON"], [1, "application/jsonx"]] as const);

  switch (kind) {
    case "create":
      method = "POST";
      path = "/api/sessions";
      if (r.chance(0.7)) {
        body = randomJsonBody(r, kind, ctx);
        headers["content-type"] = jsonType();
      }
      break;
    case "list":
      method = r.chance(0.9) ? "GET" : "HEAD";
      path = "/api/sessions";
      break;
    case "session":
      method = r.weighted([[4, "GET"], [3, "PATCH"], [1, "DELETE"], [1, "HEAD"]] as const);
      path = `/api/sessions/${sessionId}`;
      if (method === "PATCH" || r.chance(0.05)) {
        body = randomJsonBody(r, kind, ctx, owner);
        headers["content-type"] = jsonType();
      }
      break;
    case "uploads":
      method = r.chance(0.75) ? "POST" : "GET";
      path = `/api/sessions/${sessionId}/uploads`;
      if (method === "POST") {
        const mp = randomMultipart(r, opts.maxUploadBytes);
        body = mp.body;
        if (mp.contentType) headers["content-type"] = mp.contentType;
      }
      break;
    case "messages":
      method = "POST";
      path = `/api/sessions/${sessionId}/messages`;
      body = randomJsonBody(r, kind, ctx, owner);
      headers["content-type"] = jsonType();
      break;
    case "cancel":
      method = "POST";
      path = `/api/sessions/${sessionId}/cancel`;
      if (r.chance(0.3)) body = randomJsonBody(r, kind, ctx, owner);
      break;
    case "notebook":
      method = r.chance(0.9) ? "GET" : "HEAD";
      path = `/api/sessions/${sessionId}/notebook`;
      break;
    case "file": {
      method = r.chance(0.9) ? "GET" : "HEAD";
      const fileId = r.weighted<() => string>([
        [6, () => (owner.files.length ? r.pick(owner.files) : r.uuid())],
        [2, () => r.uuid()],
        [2, () => hostileId(r)],
      ])();
      const query = r.weighted([
        [5, ""],
        [3, "?variant=thumb"],
        [1, "?variant=original"],
        [1, `?variant=${pct(randomString(r, 20))}`],
        [1, "?variant=thumb&variant=original"],
        [1, "?variant"],
        [1, `?${pct(randomString(r, 20))}=${pct(randomString(r, 20))}`],
      ] as const);
      path = `/api/files/${fileId}${query}`;
      if (r.chance(0.3)) headers.range = r.pick(["bytes=0-99", "bytes=-50", "bytes=100-", "bytes=0-0", "bytes=99999999-", "bytes=5-2", "bytes=-0", "bytes=abc", "items=0-1", "bytes=0-1,5-6", `bytes=${"9".repeat(40)}-`, "bytes=--"]);
      if (r.chance(0.1)) headers["if-none-match"] = r.pick(['"abc"', "*", randomString(r, 20).replace(/[^\x21-\x7e]/g, "") || "x"]);
      break;
    }
    case "health":
      method = r.chance(0.9) ? "GET" : "HEAD";
      path = "/api/health";
      break;
  }
  if (r.chance(0.05)) headers["x-forwarded-for"] = randomString(r, 20).replace(/[^\x21-\x7e]/g, "") || "1.1.1.1";
  if (r.chance(0.05)) headers.accept = r.pick(["text/html", "*/*", "application/json;q=0", "image/*"]);
  if (method === "HEAD" || method === "GET") body = undefined;
  const target = cred.valid && idIsOwner && ["session", "uploads", "messages", "cancel", "notebook"].includes(kind) ? owner : undefined;
  return { label: `#${n} ${method} ${path.slice(0, 120)}`, kind, method, path, headers, body, target };
}

/** Roughly what the request line and headers weigh on the wire. */
export function headerBytes(req: FuzzRequest): number {
  return req.method.length + req.path.length + 12 + Object.entries(req.headers).reduce((n, [k, v]) => n + k.length + Buffer.byteLength(v) + 4, 0) + 64;
}

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
 * never a 5xx; a 2xx only where the README documents one; every error is
 * `{error: {code: "<type>:<surface>", message, field?}}` with the status its
 * type gives. HEAD answers have no body, so only their status is judged. A
 * Range outside the file answers 416 with Content-Range and no body (HTTP's
 * rule for byte ranges, which the README says the file route supports).
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

// ---------------------------------------------------------------------------
// Socket.io cases

/** Names socket.io-client refuses to emit itself; they go out as raw packets instead. */
export const RESERVED_EVENTS = ["connect", "connect_error", "disconnect", "disconnecting", "newListener", "removeListener"];

export type SocketCase =
  | { kind: "handshake"; label: string; auth: unknown; headers?: Record<string, string> }
  | { kind: "emit"; label: string; event: string; args: unknown[]; ack: boolean; oversized: boolean }
  | { kind: "raw"; label: string; packet: string };

function eventName(r: Rng): string {
  return r.weighted<() => string>([
    [4, () => "sync"],
    [3, () => randomString(r, 30) || "e"],
    [1, () => r.pick(["message", "state", "join", "leave", "error", "ping", "__proto__", "constructor", "toString", "hasOwnProperty", "emit", "on", "sync ", "SYNC", "sync\u0000"])],
    [1, () => "e".repeat(r.pick([100, 5000]))],
  ])();
}

function syncArgs(r: Rng): unknown[] {
  return r.weighted<() => unknown[]>([
    [3, () => [{ afterSeq: r.pick([0, 1, 5, 1000, 2 ** 31]) }]],
    [4, () => [{ afterSeq: randomValue(r) }]],
    [2, () => [randomValue(r)]],
    [1, () => []],
    [1, () => [{ afterSeq: 0 }, randomValue(r)]],
    [1, () => [JSON.parse(`{"afterSeq":0,"sessionId":"${r.uuid()}","__proto__":{"afterSeq":-1}}`)]],
  ])();
}

export function socketCase(r: Rng, n: number, ctx: FuzzContext): SocketCase {
  const kind = r.weighted([[2, "handshake"], [14, "emit"], [2, "raw"]] as const);
  const owner = r.pick(ctx.sessions);
  if (kind === "handshake") {
    const auth = r.weighted<() => unknown>([
      [2, () => ({})],
      [2, () => ({ sessionId: owner.id })],
      [3, () => ({ sessionId: owner.id, token: r.pick(ctx.sessions.filter((s) => s !== owner))?.token ?? "x" })],
      [2, () => ({ sessionId: r.uuid(), token: owner.token })],
      [2, () => ({ sessionId: hostileId(r), token: owner.token })],
      [3, () => randomValue(r)],
      [2, () => ({ sessionId: randomValue(r), token: randomValue(r) })],
      [1, () => ({ sessionId: owner.id, token: "t".repeat(r.pick([200, 201, 5000])) })],
    ])();
    // A cookie opens a socket only from Argus's own page (its Origin), as in a browser.
    const origin: Record<string, string> = r.pick<Record<string, string>>([{}, { origin: `http://${ctx.host}` }, { origin: "http://evil.example" }]);
    const headers = r.chance(0.2) ? { cookie: r.pick([`argus_browser=${randomString(r, 20).replace(/[^\x21-\x7e]/g, "") || "x"}`, "argus_browser=%E0%A4%A", r.pick(ctx.sessions).cookie]), ...origin } : undefined;
    return { kind, label: `#${n} handshake ${JSON.stringify(auth)?.slice(0, 100)}`, auth, headers };
  }
  if (kind === "raw") {
    const packet = r.weighted<() => string>([
      [3, () => `2${r.chance(0.5) ? r.int(0, 99) : ""}${JSON.stringify([r.pick(RESERVED_EVENTS), randomValue(r)])}`],
      [2, () => `2${r.int(0, 99)}${JSON.stringify([randomValue(r), randomValue(r)])}`],
      [2, () => randomString(r, 60)],
      [1, () => r.pick(["2", "2[]", "2{}", "2[", "3", "31[]", "5", "6", "0", "1", "0/admin,", "2/nope,[\"x\"]", "21[\"sync\"]", `2${"9".repeat(30)}["sync",{"afterSeq":0}]`, "51-[\"sync\",{\"_placeholder\":true,\"num\":0}]"])],
    ])();
    return { kind, label: `#${n} raw ${JSON.stringify(packet).slice(0, 100)}`, packet };
  }
  const event = eventName(r);
  let args = event === "sync" ? syncArgs(r) : Array.from({ length: r.int(0, 3) }, () => randomValue(r));
  if (r.chance(0.05)) args = [...args, Buffer.from(r.bytes(r.int(0, 512)))];
  // Over the server's 1 MB maxHttpBufferSize, socket.io closes the connection instead of answering.
  if (r.chance(0.02)) args = [...args, "x".repeat(1_100_000)];
  const oversized = packetBytes([event, ...args]) > 1e6 - 1000;
  const ack = !oversized && r.chance(0.75);
  return { kind, label: `#${n} emit ${JSON.stringify(event).slice(0, 40)} ${JSON.stringify(args).slice(0, 80)}${ack ? " +ack" : ""}`, event, args, ack, oversized };
}

/** About what a value weighs as a socket.io packet (binary attachments count by length). */
export function packetBytes(value: unknown): number {
  let binary = 0;
  const json = JSON.stringify(value, (_k, v: unknown) => {
    if (v && typeof v === "object" && (v as { type?: unknown }).type === "Buffer" && Array.isArray((v as { data?: unknown }).data)) {
      binary += (v as { data: unknown[] }).data.length;
      return null;
    }
    return v;
  });
  return Buffer.byteLength(json ?? "") + binary;
}

/** An ack must be `{ok: false, error: {code, message}}`, or `{ok: true, …}` for a valid sync. */
export function judgeAck(c: Extract<SocketCase, { kind: "emit" }>, ack: unknown): string | null {
  const a = ack as { ok?: unknown; error?: { code?: unknown; message?: unknown }; messages?: unknown };
  if (a?.ok === true) {
    if (c.event === "sync" && Array.isArray(a.messages)) return null;
    return `ok: true for ${c.label}`;
  }
  if (a?.ok === false && typeof a.error?.code === "string" && /^[a-z_]+:[a-z]+$/.test(a.error.code) && typeof a.error.message === "string" && a.error.message) return null;
  return `bad ack ${JSON.stringify(ack)?.slice(0, 160)} for ${c.label}`;
}

/** Counts of things, printed as a table. */
export class Tally {
  readonly counts = new Map<string, number>();
  add(key: string, n = 1): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + n);
  }
  rows(): [string, number][] {
    return [...this.counts.entries()].sort((a, b) => b[1] - a[1]);
  }
}

// ---------------------------------------------------------------------------
// Runners (shared by the test and the benchmark)

export interface Violations {
  /** kind → examples (the first few kept) and count. */
  byKind: Map<string, { count: number; examples: string[] }>;
}

function violationsOf(): Violations & { add: (kind: string, detail: string) => void; total: () => number; summary: () => string } {
  const byKind = new Map<string, { count: number; examples: string[] }>();
  return {
    byKind,
    add(kind, detail) {
      const v = byKind.get(kind) ?? { count: 0, examples: [] };
      v.count++;
      if (v.examples.length < 4) v.examples.push(detail);
      byKind.set(kind, v);
    },
    total: () => [...byKind.values()].reduce((s, v) => s + v.count, 0),
    summary: () =>
      [...byKind.entries()]
        .sort((a, b) => b[1].count - a[1].count)
        .map(([k, v]) => `${v.count}× ${k}\n    ${v.examples.join("\n    ")}`)
        .join("\n"),
  };
}

export interface HttpFuzzOptions {
  base: string;
  ctx: FuzzContext;
  seed: number;
  count: number;
  concurrency: number;
  /** Stop starting new cases after this long (the run reports how many it sent). */
  budgetMs: number;
  maxUploadBytes: number;
  /** Makes a fresh session (with one upload) to replace one a case deleted. */
  newSession: () => Promise<FuzzSession>;
}

export async function runHttpFuzz(o: HttpFuzzOptions) {
  const r = new Rng(o.seed);
  const statuses = new Tally();
  const violations = violationsOf();
  const times: { ms: number; label: string; status: number }[] = [];
  let next = 0;
  let sent = 0;
  const started = performance.now();
  const worker = async () => {
    for (;;) {
      if (next >= o.count || performance.now() - started > o.budgetMs) return;
      const n = next++;
      // Generated in order from one stream, so the cases depend only on the seed.
      const req = fuzzRequest(r, o.ctx, n, { maxUploadBytes: o.maxUploadBytes });
      const bodyBytes = typeof req.body === "string" ? Buffer.byteLength(req.body) : (req.body?.byteLength ?? 0);
      let res: HttpAnswer;
      try {
        res = await sendFuzz(o.base, req);
      } catch (error) {
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        const why = `${(error as Error).name}: ${cause?.code ?? cause?.message ?? (error as Error).message}`;
        statuses.add(`network error (${why})`);
        // The server may answer 413 and close while a body over the limit is still being sent.
        if (bodyBytes > o.maxUploadBytes && /closed|EPIPE|ECONNRESET|UND_ERR_SOCKET/i.test(why)) continue;
        violations.add(`network error on ${req.method} ${req.kind}: ${why}`, `${req.label} (body ${bodyBytes} bytes, seed ${o.seed})`);
        continue;
      }
      sent++;
      statuses.add(String(res.status));
      times.push({ ms: res.ms, label: req.label, status: res.status });
      const bad = judgeHttp(req, res);
      if (bad) violations.add(bad.kind, `${bad.detail} (seed ${o.seed})`);
      if (req.method === "DELETE" && res.status === 204 && req.target) {
        const i = o.ctx.sessions.indexOf(req.target);
        if (i >= 0) o.ctx.sessions[i] = await o.newSession();
      }
      if (req.kind === "uploads" && req.method === "POST" && res.status === 201 && req.target) {
        try {
          req.target.files.push((JSON.parse(res.text) as { id: string }).id);
        } catch {
          violations.add("201 upload without an id", req.label);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  times.sort((a, b) => b.ms - a.ms);
  return { generated: next, sent, statuses, violations, slowest: times.slice(0, 5), times: times.map((t) => t.ms), durationMs: performance.now() - started };
}

export interface SocketFuzzOptions {
  base: string;
  ctx: FuzzContext;
  seed: number;
  count: number;
  /** Sockets acting at once (each with its own valid connection). */
  workers: number;
  ackTimeoutMs: number;
  budgetMs: number;
}

const HANDSHAKE_CODES = ["bad_request:socket", "unauthorized:session", "forbidden:session", "forbidden:socket"];

export async function runSocketFuzz(o: SocketFuzzOptions) {
  const r = new Rng(o.seed);
  const outcomes = new Tally();
  const violations = violationsOf();
  const opened: Socket[] = [];
  const open = (auth: unknown, headers?: Record<string, string>) => {
    const s = io(o.base, { auth: auth as Record<string, unknown>, extraHeaders: headers, transports: ["websocket"], reconnection: false, forceNew: true, timeout: 5000 });
    opened.push(s);
    return s;
  };
  const settle = (s: Socket) =>
    new Promise<{ connected: boolean; code?: string; message?: string }>((resolve) => {
      const t = setTimeout(() => resolve({ connected: false, code: "timeout" }), 5000);
      s.once("connect", () => (clearTimeout(t), resolve({ connected: true })));
      s.once("connect_error", (e: Error & { data?: { code?: string } }) => (clearTimeout(t), resolve({ connected: false, code: e.data?.code, message: e.message })));
      // The transport closed without an answer: the server dropped a malformed CONNECT packet.
      // (socket.io-client closes the transport just before it emits connect_error, so give that a moment.)
      s.io.on("open", () => s.io.engine.once("close", () => setTimeout(() => (clearTimeout(t), resolve({ connected: false, code: "closed" })), 100)));
    });
  const valid = async () => {
    const owner = o.ctx.sessions[0]!;
    const s = open({ sessionId: owner.id, token: owner.token });
    const st = await settle(s);
    if (!st.connected) throw new Error(`a valid socket was refused: ${st.code} ${st.message}`);
    return s;
  };
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    let s = await valid();
    for (;;) {
      if (next >= o.count || performance.now() - started > o.budgetMs) break;
      const n = next++;
      let c = socketCase(r, n, o.ctx);
      if (c.kind === "emit" && RESERVED_EVENTS.includes(c.event)) c = { kind: "raw", label: c.label, packet: `2${JSON.stringify([c.event, ...c.args])}` };
      if (c.kind === "handshake") {
        const h = open(c.auth, c.headers);
        const st = await settle(h);
        h.disconnect();
        const a = c.auth as { sessionId?: unknown; token?: unknown } | null;
        const session = o.ctx.sessions.find((x) => x.id === a?.sessionId);
        const cookieOk = !!session && c.headers?.cookie === session.cookie && c.headers?.origin === `http://${o.ctx.host}`;
        // The token opens its session; so does the creating browser's cookie, unless the token is malformed.
        const tokenWellFormed = a?.token === undefined || (typeof a.token === "string" && a.token.length >= 1 && a.token.length <= 200);
        const legit = !!session && (a?.token === session.token || (cookieOk && tokenWellFormed));
        if (st.connected) {
          outcomes.add("handshake accepted");
          if (!legit) violations.add("handshake accepted without valid credentials", c.label);
        } else {
          outcomes.add(`handshake refused ${st.code}`);
          // socket.io's parser only accepts an object (or nothing) as CONNECT data and drops the
          // connection otherwise; socket.io-client never sends anything else for a valid `auth`.
          const plainObject = typeof c.auth === "object" && c.auth !== null && !Array.isArray(c.auth);
          if (legit) violations.add("valid handshake refused", `${c.label} → ${st.code}`);
          else if (st.code === "closed" && !plainObject) continue;
          // A handshake over the 1 MB packet limit, or whose upgrade request carries over 16 KB of
          // headers (Node answers 431), is cut off at the transport, without a code.
          else if (st.code === undefined && (packetBytes(c.auth) > 1e6 - 1000 || Buffer.byteLength(c.headers?.cookie ?? "") > 16 * 1024 - 1024)) continue;
          else if (!HANDSHAKE_CODES.includes(st.code ?? "")) violations.add(`handshake refused with code ${st.code}`, `${c.label} → ${st.message}`);
        }
        continue;
      }
      if (c.kind === "raw") {
        // A malformed packet may make the server close the connection: find out with a valid request.
        const closed = new Promise<"closed">((res) => s.once("disconnect", () => res("closed")));
        s.io.engine.write(c.packet);
        const after = await Promise.race([closed, s.timeout(o.ackTimeoutMs).emitWithAck("sync", { afterSeq: 0 }).then(() => "open" as const, () => "no ack" as const)]);
        outcomes.add(after === "open" ? "raw packet, still connected" : "raw packet, closed by the server");
        // A packet starting with "1" is a DISCONNECT for the namespace: the server rightly stops answering.
        if (after === "no ack" && s.connected && !c.packet.startsWith("1")) violations.add("a connection stopped answering after a raw packet", c.label);
        if (after !== "open") {
          s.disconnect();
          s = await valid();
        }
        continue;
      }
      const closed = new Promise<"closed">((res) => s.once("disconnect", () => res("closed")));
      const ping = () => s.timeout(o.ackTimeoutMs).emitWithAck("sync", { afterSeq: 0 }).then(() => "open" as const, () => "no ack" as const);
      if (c.ack) {
        try {
          const ack = await s.timeout(o.ackTimeoutMs).emitWithAck(c.event, ...c.args);
          outcomes.add((ack as { ok?: boolean })?.ok ? "ack ok:true" : "ack ok:false");
          const bad = judgeAck(c, ack);
          if (bad) violations.add("bad acknowledgement", bad);
        } catch {
          outcomes.add("no ack");
          violations.add(`no acknowledgement for '${c.event.slice(0, 30)}' with ${c.args.length} argument(s)`, `${c.label} (seed ${o.seed})`);
        }
      } else {
        s.emit(c.event, ...c.args);
        // Nothing comes back; the connection must still answer a valid request (unless the event was oversized).
        const after = await Promise.race([closed, ping()]);
        outcomes.add(c.oversized ? `oversized, ${after === "open" ? "still connected" : "closed by the server"}` : "emit without ack");
        if (!c.oversized && after !== "open") violations.add(`the connection ${after === "closed" ? "was closed" : "stopped answering"} after an event without ack`, c.label);
      }
      if (!s.connected) {
        if (!c.oversized) violations.add("the server dropped a socket after an event", c.label);
        s.disconnect();
        s = await valid();
      }
    }
    // The connection still serves a valid request after everything it was sent.
    try {
      const ack = (await s.timeout(o.ackTimeoutMs * 2).emitWithAck("sync", { afterSeq: 0 })) as { ok?: boolean };
      if (ack?.ok !== true) violations.add("a valid sync failed after fuzzing", JSON.stringify(ack).slice(0, 200));
    } catch {
      violations.add("a valid sync got no ack after fuzzing", "end of worker");
    }
  };
  await Promise.all(Array.from({ length: o.workers }, worker));
  for (const s of opened) s.disconnect();
  return { sent: next, outcomes, violations, durationMs: performance.now() - started };
}
