/** Random requests against the documented HTTP routes, with and without valid credentials. */
import type { Rng } from "./rng";
import { randomMultipart } from "./uploads";
import { hostileId, pct, randomString, randomValue } from "./values";

export interface FuzzSession {
  id: string;
  token: string;
  /** `argus_browser=…` */
  cookie: string;
  /** The proof POST /api/sessions handed with the cookie (a browser's write needs both: lib/server/browser-proof.ts). */
  browserProof: string;
  /** Upload ids of this session. */
  files: string[];
}

export interface FuzzContext {
  /** Live sessions; a case may delete one (the caller replaces it). */
  sessions: FuzzSession[];
  /** `host:port` of the server, for same-origin headers. */
  host: string;
}

type RouteKind =
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

function credentials(r: Rng, ctx: FuzzContext, owner: FuzzSession): { headers: Record<string, string>; valid: boolean } {
  const other = r.pick(ctx.sessions);
  return r.weighted<() => { headers: Record<string, string>; valid: boolean }>([
    [10, () => ({ headers: { authorization: `Bearer ${owner.token}` }, valid: true })],
    [2, () => ({ headers: { cookie: owner.cookie, origin: `http://${ctx.host}`, "sec-fetch-site": "same-origin", "x-argus-browser-proof": owner.browserProof }, valid: true })],
    [2, () => ({ headers: { cookie: owner.cookie, origin: "http://evil.example", "sec-fetch-site": "cross-site" }, valid: false })],
    [2, () => ({ headers: {}, valid: false })],
    [2, () => ({ headers: { authorization: `Bearer ${other.token}` }, valid: other === owner })],
    [1, () => ({ headers: { authorization: `Bearer ${randomString(r, 80).replace(/[^\x21-\x7e]/g, "A") || "x"}` }, valid: false })],
    [1, () => ({ headers: { authorization: r.pick(["Bearer", "Basic Zm9vOmJhcg==", "Bearer a b", "bearer\t", "Token xyz", `Bearer ${"z".repeat(8000)}`]) }, valid: false })],
    [1, () => ({ headers: { cookie: r.pick(["argus_browser=", "argus_browser=%E0%A4%A", "argus_browser", `argus_browser=${"q".repeat(3000)}`, "=; ;;; argus_browser==x"]) }, valid: false })],
  ])();
}

/** A JSON-ish body for the JSON routes: plausible, mutated, malformed or oversized. */
function randomJsonBody(r: Rng, kind: RouteKind, ctx: FuzzContext, owner?: FuzzSession): string | Uint8Array {
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
