import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedModel, type ScriptedModel } from "@/scripted-model/server";
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";
import type { SyncAck } from "@/lib/foundation/protocol/socket";
import type { RunStateWire } from "@/lib/foundation/protocol/state-wire";
import { ROLE_MODELS, watchSession, type Watch } from "@/tests/helpers/agent-run";
import { api, startArgus, type RunningServer } from "@/tests/helpers/argus-server";
import { noisyImage, pngChunk } from "@/tests/helpers/media";
import { tempDir } from "@/tests/helpers/temp-dir";

/**
 * Session isolation: every HTTP route and the socket, probed by another
 * session's credentials, guessed and malformed ids, and no credentials at all.
 * The victim's session holds recognisable data (title, upload bytes, message
 * text, the model's reply) and no refused answer may carry any of it.
 */

const tag = randomUUID().slice(0, 8);
const SECRET = {
  title: `VICTIM-TITLE-${tag}`,
  message: `VICTIM-MESSAGE-${tag}`,
  reply: `VICTIM-REPLY-${tag}`,
  fileName: `victim-${tag}.png`,
  pixels: `VICTIM-PIXELS-${tag}`,
};

const scratch = tempDir("argus-security-");
let model: ScriptedModel;
let server: RunningServer;
let call: ReturnType<typeof api>;
let host: string;
const sockets: Socket[] = [];

interface Sess {
  id: string;
  token: string;
  cookie: string;
  /** The proof the attacker's own page holds with its cookie (lib/server/browser-proof.ts). */
  proof: string;
}
let victim: Sess;
let attacker: Sess;
let victimFile: { id: string; bytes: Buffer; thumb: Buffer };
let victimWatch: Watch;
let attackerWatch: Watch;

/** A small real PNG that carries a marker string in a tEXt chunk, so its bytes are recognisable anywhere. */
async function markedPng(marker: string): Promise<Buffer> {
  const png = await sharp({ create: { width: 48, height: 32, channels: 3, background: { r: 200, g: 40, b: 90 } } }).png().toBuffer();
  const ihdrEnd = 8 + 25; // signature + IHDR chunk
  return Buffer.concat([png.subarray(0, ihdrEnd), pngChunk("tEXt", Buffer.from(`Comment\0${marker}`, "latin1")), png.subarray(ihdrEnd)]);
}

async function newSession(title?: string): Promise<Sess> {
  const res = await call("POST", "/api/sessions", title ? { body: { title } } : {});
  expect(res.status).toBe(201);
  return { id: res.json.id, token: res.json.token, cookie: res.headers.get("set-cookie")!.split(";")[0]!, proof: res.json.browserProof };
}

function uploadForm(bytes: Uint8Array, name: string): FormData {
  const form = new FormData();
  form.set("file", new Blob([bytes as BlobPart], { type: "image/png" }), name);
  return form;
}

/** A raw request whose answer is kept as bytes (files are binary). */
async function probe(method: string, route: string, headers: Record<string, string>, body?: BodyInit) {
  const res = await fetch(server.url + route, { method, headers, body, redirect: "manual" });
  const bytes = Buffer.from(await res.arrayBuffer());
  const text = bytes.toString("utf8");
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: res.status, bytes, text, json, type: res.headers.get("content-type") };
}

/** Nothing of the victim's session in an answer: no title, text, reply, name, token, cookie or file bytes. */
function expectNoVictimData(res: { bytes: Buffer; text: string }, label: string) {
  for (const secret of [SECRET.title, SECRET.message, SECRET.reply, SECRET.fileName, SECRET.pixels, victim.token, victim.cookie.split("=")[1]!]) {
    expect(res.text.includes(secret), `${label}: the answer contains ${secret}`).toBe(false);
  }
  expect(res.bytes.includes(victimFile.bytes.subarray(0, 64)), `${label}: the answer contains the victim's file`).toBe(false);
  expect(res.bytes.includes(victimFile.thumb.subarray(0, 64)), `${label}: the answer contains the victim's thumbnail`).toBe(false);
}

function expectRefusal(res: Awaited<ReturnType<typeof probe>>, expected: 401 | 403, label: string) {
  expect(res.status, `${label}: ${res.text.slice(0, 200)}`).toBe(expected);
  if (res.text) {
    expect(res.json?.error?.code, label).toBe(expected === 401 ? "unauthorized:session" : "forbidden:session");
    expect(typeof res.json?.error?.message, label).toBe("string");
  }
  expectNoVictimData(res, label);
}

/** Every session route and file route, as (method, path, body) for a given session id and file id. */
type RouteCase = { name: string; method: string; path: string; body?: () => { body: BodyInit; type?: string } };
function routes(sessionId: string, fileId: string): RouteCase[] {
  const s = `/api/sessions/${sessionId}`;
  const json = (value: unknown) => () => ({ body: JSON.stringify(value), type: "application/json" });
  return [
    { name: "GET session", method: "GET", path: s },
    { name: "HEAD session", method: "HEAD", path: s },
    { name: "PATCH session", method: "PATCH", path: s, body: json({ title: "pwned" }) },
    { name: "DELETE session", method: "DELETE", path: s },
    { name: "POST uploads", method: "POST", path: `${s}/uploads`, body: () => ({ body: uploadForm(victimFile.bytes, "pwn.png") }) },
    { name: "GET uploads", method: "GET", path: `${s}/uploads` },
    { name: "POST messages", method: "POST", path: `${s}/messages`, body: json({ role: "user", content: "pwned" }) },
    { name: "POST messages (answer)", method: "POST", path: `${s}/messages`, body: json({ role: "interaction_response", content: "pwned" }) },
    { name: "POST cancel", method: "POST", path: `${s}/cancel` },
    { name: "GET notebook", method: "GET", path: `${s}/notebook` },
    { name: "GET file", method: "GET", path: `/api/files/${fileId}` },
    { name: "HEAD file", method: "HEAD", path: `/api/files/${fileId}` },
    { name: "GET file thumb", method: "GET", path: `/api/files/${fileId}?variant=thumb` },
    { name: "GET file range", method: "GET", path: `/api/files/${fileId}` },
  ];
}

async function send(route: RouteCase, headers: Record<string, string>) {
  const b = route.body?.();
  const h: Record<string, string> = { ...headers };
  if (b?.type) h["content-type"] = b.type;
  if (route.name === "GET file range") h.range = "bytes=0-99";
  return probe(route.method, route.path, h, b?.body);
}

/** Everything the victim's session holds, read with its own token: must be unchanged by every refused request. */
async function victimSnapshot() {
  const view = await call("GET", `/api/sessions/${victim.id}`, { token: victim.token });
  const uploads = await call("GET", `/api/sessions/${victim.id}/uploads`, { token: victim.token });
  return { status: view.status, title: view.json?.title, state: view.json?.state, messages: view.json?.messages?.length, uploads: uploads.json?.uploads?.length };
}

function open(auth: unknown, headers?: Record<string, string>): Socket {
  const s = connect(server.url, { auth: auth as Record<string, unknown>, transports: ["websocket"], reconnection: false, forceNew: true, extraHeaders: headers });
  sockets.push(s);
  return s;
}

function refused(s: Socket): Promise<Error & { data?: { code?: string } }> {
  return new Promise((resolve, reject) => {
    s.once("connect", () => reject(new Error("the connection was accepted")));
    s.once("connect_error", (e) => resolve(e as Error & { data?: { code?: string } }));
  });
}

async function until(check: () => boolean, timeoutMs = 20_000, what = "condition"): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  model = await startScriptedModel({
    name: "security isolation",
    turns: [
      // The victim's run.
      { model: "conversation", expect: { contains: SECRET.message }, toolCalls: [{ name: "reply", args: { response: `${SECRET.reply}: nothing to see.` } }] },
      // The attacker's own run: its request must carry nothing of the victim's session.
      {
        model: "conversation",
        expect: { contains: "attacker asks", notContains: [SECRET.message, SECRET.reply, SECRET.title, SECRET.fileName], maxImages: 0 },
        toolCalls: [{ name: "reply", args: { response: "attacker reply" } }],
      },
      // The victim's second run, after the attacker tried to join its room.
      { model: "conversation", expect: { contains: `${SECRET.message} again` }, toolCalls: [{ name: "reply", args: { response: `${SECRET.reply} again` } }] },
      // The cross-site session's token-authorised run: slow, so it is still active when cancelled.
      { model: "conversation", fault: { type: "slow", ms: 8000 }, toolCalls: [{ name: "reply", args: { response: "too late" } }] },
      // A run whose session is deleted while the model is still answering.
      { model: "conversation", fault: { type: "slow", ms: 1500 }, toolCalls: [{ name: "reply", args: { response: "answer for a deleted session" } }] },
    ],
  });
  server = await startArgus({
    dataDir: scratch.dir,
    env: { ARGUS_JUPYTER: "off", OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "scripted", ARGUS_MODEL_MAX_RETRIES: "0", ...ROLE_MODELS },
  });
  call = api(server.url);
  host = new URL(server.url).host;

  victim = await newSession(SECRET.title);
  attacker = await newSession();
  const bytes = await markedPng(SECRET.pixels);
  const up = await call("POST", `/api/sessions/${victim.id}/uploads`, { token: victim.token, raw: uploadForm(bytes, SECRET.fileName) });
  expect(up.status, up.text).toBe(201);
  const thumb = await probe("GET", `/api/files/${up.json.id}?variant=thumb`, { authorization: `Bearer ${victim.token}` });
  expect(thumb.status).toBe(200);
  const original = await probe("GET", `/api/files/${up.json.id}`, { authorization: `Bearer ${victim.token}` });
  expect(original.bytes.equals(bytes)).toBe(true);
  expect(original.text).toContain(SECRET.pixels);
  victimFile = { id: up.json.id, bytes, thumb: thumb.bytes };

  // Both clients listen before the victim's run starts; the attacker must hear nothing of it.
  victimWatch = await watchSession(server.url, victim);
  attackerWatch = await watchSession(server.url, attacker);
  const posted = await call("POST", `/api/sessions/${victim.id}/messages`, { token: victim.token, body: { role: "user", content: `${SECRET.message} what is this?`, media: [victimFile.id] } });
  expect(posted.status, posted.text).toBe(202);
  await victimWatch.until(["finished"], 30_000, posted.json.runId);
  await until(() => victimWatch.messages.some((m) => m.content.includes(SECRET.reply)), 10_000, "the victim's reply");
});

afterAll(async () => {
  for (const s of sockets) s.disconnect();
  victimWatch?.socket.disconnect();
  attackerWatch?.socket.disconnect();
  await server?.kill();
  await model?.close();
  scratch.cleanup();
});

describe("session isolation over HTTP", () => {
  it("the victim's own token reads everything (the probes below are meaningful)", async () => {
    const view = await probe("GET", `/api/sessions/${victim.id}`, { authorization: `Bearer ${victim.token}` });
    expect(view.status).toBe(200);
    expect(view.text).toContain(SECRET.title);
    expect(view.text).toContain(SECRET.message);
    expect(view.text).toContain(SECRET.reply);
    const uploads = await probe("GET", `/api/sessions/${victim.id}/uploads`, { cookie: victim.cookie });
    expect(uploads.text).toContain(SECRET.fileName);
    const file = await probe("GET", `/api/files/${victimFile.id}`, { cookie: victim.cookie });
    expect(file.bytes.equals(victimFile.bytes)).toBe(true);
  });

  it("refuses every route to no credentials (401) and to anyone else's (403), leaking nothing and changing nothing", async () => {
    const before = await victimSnapshot();
    const attackers: { label: string; headers: Record<string, string>; expected: 401 | 403 }[] = [
      { label: "no credentials", headers: {}, expected: 401 },
      { label: "an empty bearer", headers: { authorization: "Bearer " }, expected: 401 },
      { label: "the victim's token as Basic auth", headers: { authorization: `Basic ${victim.token}` }, expected: 401 },
      { label: "a foreign browser's unrelated cookie", headers: { cookie: "other=1" }, expected: 401 },
      { label: "another session's token", headers: { authorization: `Bearer ${attacker.token}` }, expected: 403 },
      { label: "another browser's cookie (same origin)", headers: { cookie: attacker.cookie, origin: `http://${host}`, "sec-fetch-site": "same-origin", "x-argus-browser-proof": attacker.proof }, expected: 403 },
      { label: "another session's token and cookie", headers: { authorization: `Bearer ${attacker.token}`, cookie: attacker.cookie }, expected: 403 },
      { label: "a made-up token", headers: { authorization: `Bearer ${"A".repeat(43)}` }, expected: 403 },
      { label: "the victim's token sent as the cookie", headers: { cookie: `argus_browser=${victim.token}` }, expected: 403 },
      { label: "the victim's cookie value sent as a token", headers: { authorization: `Bearer ${victim.cookie.split("=")[1]}` }, expected: 403 },
      { label: "a truncated victim token", headers: { authorization: `Bearer ${victim.token.slice(0, -1)}` }, expected: 403 },
    ];
    let probes = 0;
    for (const who of attackers) {
      for (const route of routes(victim.id, victimFile.id)) {
        const res = await send(route, who.headers);
        expectRefusal(res, who.expected, `${route.name} with ${who.label}`);
        probes++;
      }
    }
    expect(probes).toBe(attackers.length * routes(victim.id, victimFile.id).length);
    expect(await victimSnapshot()).toEqual(before);
  });

  it("answers a guessed session or file id exactly like a foreign one (403), for the owner's token too", async () => {
    const before = await victimSnapshot();
    const guessed = [randomUUID(), "00000000-0000-4000-8000-000000000000", victim.id.toUpperCase(), victim.id.replace(/.$/, (c) => (c === "0" ? "1" : "0"))];
    const foreign = await send(routes(victim.id, victimFile.id)[0]!, { authorization: `Bearer ${attacker.token}` });
    for (const id of guessed) {
      const fileId = id === victim.id.toUpperCase() ? victimFile.id.toUpperCase() : id;
      for (const token of [attacker.token, victim.token]) {
        for (const route of routes(id, fileId)) {
          const res = await send(route, { authorization: `Bearer ${token}` });
          expectRefusal(res, 403, `${route.name} ${id} with ${token === victim.token ? "the victim's" : "another"} token`);
          // Same words whether the id exists or not: a guess learns nothing.
          expect(res.json?.error.message ?? foreign.json.error.message).toBe(foreign.json.error.message);
        }
        const none = await send(routes(id, fileId)[0]!, {});
        expectRefusal(none, 401, `GET session ${id} without credentials`);
      }
    }
    expect(await victimSnapshot()).toEqual(before);
  });

  it("refuses malformed ids (403 with credentials, 401 without), with nothing leaked", async () => {
    const before = await victimSnapshot();
    const malformed = [
      "not-a-uuid",
      "'%20OR%20'1'%3D'1",
      "1%3B%20DROP%20TABLE%20sessions",
      `${victim.id}%00`,
      `${victim.id}%20`,
      encodeURIComponent(`${victim.id}/../${victim.id}`),
      encodeURIComponent(`../${victim.id}`),
      victim.id.slice(0, 8),
      "%2A",
      "x".repeat(600),
      "%F0%9F%92%A5",
      "null",
      "undefined",
      "__proto__",
    ];
    for (const id of malformed) {
      for (const token of [victim.token, attacker.token]) {
        for (const route of routes(id, id)) {
          const res = await send(route, { authorization: `Bearer ${token}` });
          expectRefusal(res, 403, `${route.name} ${id}`);
        }
      }
      for (const route of routes(id, id)) expectRefusal(await send(route, {}), 401, `${route.name} ${id} without credentials`);
    }
    expect(await victimSnapshot()).toEqual(before);
  });

  it("refuses an id that is not valid percent-encoding like any other malformed id (never a 5xx)", async () => {
    const wrong: string[] = [];
    for (const id of ["%E0%A4%A", "%ZZ", "%", "%FF", "%C0%AF"]) {
      for (const token of [attacker.token, null]) {
        for (const route of routes(id, id)) {
          const res = await send(route, token ? { authorization: `Bearer ${token}` } : {});
          expectNoVictimData(res, `${route.method} ${route.path}`);
          const expected = token ? 403 : 401;
          if (res.status !== expected || (route.method !== "HEAD" && !res.json?.error?.code)) {
            wrong.push(`${route.method} ${route.path}${token ? " (token)" : ""} → ${res.status} ${res.type} ${JSON.stringify(res.text.slice(0, 40))}`);
          }
        }
      }
    }
    expect(wrong.length, `${wrong.length} answers were not 403/401 with the JSON error shape, e.g.:\n${wrong.filter((_, i) => i % 14 === 0).join("\n")}`).toBe(0);
  });

  it("does not list the victim's session to another browser, nor let another session reference its upload", async () => {
    const list = await call("GET", "/api/sessions", { headers: { cookie: attacker.cookie } });
    expect(list.status).toBe(200);
    expect(list.json.sessions.map((s: { id: string }) => s.id)).toEqual([attacker.id]);
    expect(list.text).not.toContain(SECRET.title);

    const media = await call("POST", `/api/sessions/${attacker.id}/messages`, {
      token: attacker.token,
      body: { role: "user", content: "attacker asks about this", media: [victimFile.id] },
    });
    expect(media.status).toBe(400);
    expect(media.json.error.field).toBe("media.0");
    expect(media.text).not.toContain(SECRET.fileName);
  });

  it("runs the attacker's own message with nothing of the victim's session in the model request", async () => {
    const posted = await call("POST", `/api/sessions/${attacker.id}/messages`, { token: attacker.token, body: { role: "user", content: "attacker asks: what did the others say?" } });
    expect(posted.status, posted.text).toBe(202);
    const end = await attackerWatch.until(["finished", "error"], 30_000, posted.json.runId);
    // The scripted turn's expect (notContains the victim's text, no images) failing would end the run in error.
    expect(end.agentState).toBe("finished");
    const req = model.requests.filter((r) => r.model === "conversation").at(-1)!;
    expect(req.status).toBe(200);
    expect(JSON.stringify(req.messages)).not.toContain(SECRET.message);
  });

  it("keeps a shared blob for the victim when another session uploading the same bytes is deleted", async () => {
    const other = await newSession();
    const up = await call("POST", `/api/sessions/${other.id}/uploads`, { token: other.token, raw: uploadForm(victimFile.bytes, "same.png") });
    expect(up.status).toBe(201);
    expect(up.json.id).not.toBe(victimFile.id);
    // The copy is the other session's own file; it opens nothing of the victim's.
    expectRefusal(await probe("GET", `/api/files/${victimFile.id}`, { authorization: `Bearer ${other.token}` }), 403, "victim's file with the copier's token");
    expect((await call("DELETE", `/api/sessions/${other.id}`, { token: other.token })).status).toBe(204);
    const still = await probe("GET", `/api/files/${victimFile.id}`, { authorization: `Bearer ${victim.token}` });
    expect(still.status).toBe(200);
    expect(still.bytes.equals(victimFile.bytes)).toBe(true);
    expect((await probe("GET", `/api/files/${victimFile.id}?variant=thumb`, { authorization: `Bearer ${victim.token}` })).status).toBe(200);
  });
});

describe("session isolation over Socket.io", () => {
  it("refuses another session's token, a guessed id, a malformed id and no credentials", async () => {
    const cases: { label: string; auth: unknown; headers?: Record<string, string>; code: string }[] = [
      { label: "another session's token", auth: { sessionId: victim.id, token: attacker.token }, code: "forbidden:session" },
      { label: "a made-up token", auth: { sessionId: victim.id, token: "A".repeat(43) }, code: "forbidden:session" },
      { label: "the victim's cookie value as token", auth: { sessionId: victim.id, token: victim.cookie.split("=")[1] }, code: "forbidden:session" },
      { label: "a guessed id with another token", auth: { sessionId: randomUUID(), token: attacker.token }, code: "forbidden:session" },
      { label: "a guessed id with the victim's token", auth: { sessionId: randomUUID(), token: victim.token }, code: "forbidden:session" },
      { label: "no token", auth: { sessionId: victim.id }, code: "unauthorized:session" },
      { label: "no auth at all", auth: {}, code: "bad_request:socket" },
      { label: "another browser's cookie", auth: { sessionId: victim.id }, headers: { cookie: attacker.cookie }, code: "forbidden:session" },
      { label: "the victim's token as cookie", auth: { sessionId: victim.id }, headers: { cookie: `argus_browser=${victim.token}` }, code: "forbidden:session" },
      { label: "a malformed id", auth: { sessionId: "not-a-uuid", token: victim.token }, code: "bad_request:socket" },
      { label: "an upper-cased id", auth: { sessionId: victim.id.toUpperCase(), token: victim.token }, code: "forbidden:session" },
      { label: "an id of the wrong type", auth: { sessionId: 42, token: victim.token }, code: "bad_request:socket" },
      { label: "a token of the wrong type", auth: { sessionId: victim.id, token: ["x"] }, code: "bad_request:socket" },
    ];
    for (const c of cases) {
      const s = open(c.auth, c.headers);
      let leaked = false;
      s.on("message", () => (leaked = true));
      s.on("state", () => (leaked = true));
      const err = await refused(s);
      expect(err.data?.code, c.label).toBe(c.code);
      expect(JSON.stringify({ m: err.message, d: err.data })).not.toContain(SECRET.title);
      expect(leaked, c.label).toBe(false);
      s.disconnect();
    }
  });

  it("never delivers the victim's events to another session's client, live or by sync", async () => {
    // The victim's client saw its run live.
    expect(victimWatch.messages.map((m) => m.content).join("\n")).toContain(SECRET.message);
    expect(victimWatch.states.length).toBeGreaterThan(0);
    const victimRuns = new Set(victimWatch.messages.map((m) => m.runId));

    const heard = (list: readonly (StreamedMessage | RunStateWire)[]) => list.filter((m) => victimRuns.has(m.runId));
    expect(heard(attackerWatch.messages)).toEqual([]);
    expect(heard(attackerWatch.states)).toEqual([]);
    expect(JSON.stringify(attackerWatch.messages)).not.toContain(SECRET.message);

    // sync only ever reads the socket's own session, whatever the payload names.
    for (const req of [{ afterSeq: 0 }, { afterSeq: 0, sessionId: victim.id }, { afterSeq: 0, session: victim.id, room: `session:${victim.id}` }]) {
      const ack = (await attackerWatch.socket.timeout(5000).emitWithAck("sync", req)) as SyncAck;
      expect(ack.ok).toBe(true);
      expect(JSON.stringify(ack)).not.toContain(SECRET.message);
      expect(JSON.stringify(ack)).not.toContain(SECRET.reply);
      if (ack.ok) expect(ack.messages.every((m) => !victimRuns.has(m.runId))).toBe(true);
    }
    // Asking to join the victim's room is an unknown event, refused.
    for (const event of ["join", "subscribe", "session"]) {
      const ack = (await attackerWatch.socket.timeout(5000).emitWithAck(event, { sessionId: victim.id, room: `session:${victim.id}` })) as SyncAck;
      expect(ack.ok).toBe(false);
    }
    // A new victim run after those attempts still reaches only the victim.
    const attackerBefore = { messages: attackerWatch.messages.length, states: attackerWatch.states.length };
    const again = await call("POST", `/api/sessions/${victim.id}/messages`, { token: victim.token, body: { role: "user", content: `${SECRET.message} again` } });
    expect(again.status, again.text).toBe(202);
    await victimWatch.until(["finished"], 30_000, again.json.runId);
    await until(() => victimWatch.messages.some((m) => m.content.includes(`${SECRET.reply} again`)), 10_000, "the victim's second reply");
    await new Promise((r) => setTimeout(r, 200));
    expect({ messages: attackerWatch.messages.length, states: attackerWatch.states.length }).toEqual(attackerBefore);
    expect(JSON.stringify(attackerWatch.messages)).not.toContain(SECRET.reply);
  });
});

describe("cross-site writes authorised only by the cookie", () => {
  it("are refused on every state-changing route, while the same requests with the bearer token work", async () => {
    const s = await newSession();
    const title = `cross-${tag}`;
    expect((await call("PATCH", `/api/sessions/${s.id}`, { token: s.token, body: { title } })).status).toBe(200);
    const pngBytes = await markedPng(`cross-${tag}`);
    const foreignHeaders: { label: string; headers: Record<string, string> }[] = [
      { label: "Origin of another site and Sec-Fetch-Site: cross-site", headers: { origin: "http://evil.example", "sec-fetch-site": "cross-site" } },
      { label: "Origin of another site", headers: { origin: "http://evil.example" } },
      { label: "Sec-Fetch-Site: cross-site", headers: { "sec-fetch-site": "cross-site" } },
      { label: "Sec-Fetch-Site: same-site (a sibling site)", headers: { "sec-fetch-site": "same-site", origin: `http://sub.${host.split(":")[0]}` } },
      { label: "Sec-Fetch-Site: cross-site with our own Origin", headers: { origin: `http://${host}`, "sec-fetch-site": "cross-site" } },
      { label: "Origin: null (sandboxed frame)", headers: { origin: "null" } },
      { label: "an Origin whose host only starts like ours", headers: { origin: `http://${host}.evil.example` } },
      { label: "an Origin that is not a URL", headers: { origin: "evil" } },
      { label: "no Origin and no Sec-Fetch-Site", headers: {} },
    ];
    const writes: { name: string; method: string; path: string; body?: () => { body: BodyInit; type?: string }; ok: number }[] = [
      { name: "PATCH session", method: "PATCH", path: `/api/sessions/${s.id}`, body: () => ({ body: JSON.stringify({ title: "pwned" }), type: "application/json" }), ok: 200 },
      { name: "POST uploads", method: "POST", path: `/api/sessions/${s.id}/uploads`, body: () => ({ body: uploadForm(pngBytes, "x.png") }), ok: 201 },
      { name: "POST messages", method: "POST", path: `/api/sessions/${s.id}/messages`, body: () => ({ body: JSON.stringify({ role: "user", content: "cross-site message" }), type: "application/json" }), ok: 202 },
      { name: "POST cancel", method: "POST", path: `/api/sessions/${s.id}/cancel`, ok: 202 },
      { name: "DELETE session", method: "DELETE", path: `/api/sessions/${s.id}`, ok: 204 },
    ];
    const state = async () => {
      const v = await call("GET", `/api/sessions/${s.id}`, { token: s.token });
      const u = await call("GET", `/api/sessions/${s.id}/uploads`, { token: s.token });
      return { status: v.status, title: v.json?.title, messages: v.json?.messages?.length, state: v.json?.state, uploads: u.json?.uploads?.length };
    };
    const send = async (w: (typeof writes)[number], headers: Record<string, string>) => {
      const b = w.body?.();
      return probe(w.method, w.path, { ...headers, ...(b?.type ? { "content-type": b.type } : {}) }, b?.body);
    };
    const refuseAll = async (when: string) => {
      const before = await state();
      for (const w of writes) {
        for (const f of foreignHeaders) {
          const res = await send(w, { cookie: s.cookie, ...f.headers });
          expect(res.status, `${w.name} with the cookie and ${f.label} (${when}): ${res.text}`).toBe(403);
          expect(res.json.error.code).toBe("forbidden:session");
        }
      }
      expect(await state(), when).toEqual(before);
    };

    await refuseAll("idle");

    // The token works even from a foreign origin (it is never sent automatically), cookie or not.
    const viaToken = (w: (typeof writes)[number]) => send(w, { authorization: `Bearer ${s.token}`, cookie: s.cookie, origin: "http://evil.example", "sec-fetch-site": "cross-site" });
    const [patch, upload, message, cancel, del] = writes;
    expect((await viaToken(patch!)).status).toBe(200);
    expect((await viaToken(upload!)).status).toBe(201);
    const watch = await watchSession(server.url, s);
    try {
      const started = await viaToken(message!);
      expect(started.status, started.text).toBe(202);
      await watch.until(["running", "loading"], 10_000, started.json.runId);
      // While the run is active a cross-site cancel changes nothing either.
      await refuseAll("run active");
      expect((await call("GET", `/api/sessions/${s.id}`, { token: s.token })).json.state).toMatch(/running|loading/);
      const cancelled = await viaToken(cancel!);
      expect(cancelled.status, cancelled.text).toBe(202);
      expect(cancelled.json.runId).toBe(started.json.runId);
      await watch.until(["stopped"], 10_000, started.json.runId);
    } finally {
      watch.socket.disconnect();
    }
    // Same-origin requests with the cookie alone are the page's own, and work.
    const same = await probe("PATCH", `/api/sessions/${s.id}`, { cookie: s.cookie, origin: `http://${host}`, "content-type": "application/json" }, JSON.stringify({ title: "mine" }));
    expect(same.status).toBe(200);
    expect((await viaToken(del!)).status).toBe(204);
    expect((await call("GET", `/api/sessions/${s.id}`, { token: s.token })).status).toBe(403);
  });
});

describe("deleting a session", () => {
  /** Every blob file on disk (content-addressed by SHA-256). */
  const blobShas = () =>
    readdirSync(path.join(server.dataDir, "blobs"), { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => path.basename(d.parentPath) + d.name);

  it("mid-upload leaves none of its files behind and answers the upload without a 5xx", async () => {
    // Large enough that validating it and making its thumbnail takes a while.
    const big = await noisyImage(2500, 2500).png({ compressionLevel: 0 }).toBuffer();
    const sha = createHash("sha256").update(big).digest("hex");
    // (The listing does find stored originals: the victim's is there.)
    expect(blobShas()).toContain(createHash("sha256").update(victimFile.bytes).digest("hex"));
    const s = await newSession();
    const upload = call("POST", `/api/sessions/${s.id}/uploads`, { token: s.token, raw: uploadForm(big, "mid-delete.png") });
    await new Promise((r) => setTimeout(r, 50));
    const deleted = await call("DELETE", `/api/sessions/${s.id}`, { token: s.token });
    expect(deleted.status).toBe(204);
    const up = await upload;
    const workspace = path.join(server.dataDir, "sessions", s.id);
    const leftovers = {
      uploadStatus: up.status,
      workspaceExists: existsSync(workspace),
      workspaceFiles: existsSync(workspace) ? readdirSync(workspace) : [],
      originalBlobKept: blobShas().includes(sha),
    };
    // The upload may win (201, then the delete removes it) or lose (a 4xx); either way nothing stays.
    expect(leftovers, `${up.text}\n${server.output().split("\n").filter((l) => /unexpected error|FOREIGN/.test(l)).join("\n")}`).toEqual({
      uploadStatus: expect.toSatisfy((st: number) => st === 201 || (st >= 400 && st < 500)),
      workspaceExists: false,
      workspaceFiles: [],
      originalBlobKept: false,
    });
    expect((await call("GET", `/api/sessions/${s.id}/uploads`, { token: s.token })).status).toBe(403);
  });

  it("mid-run ends the run quietly: no unhandled error, and the server keeps serving", async () => {
    const s = await newSession();
    const logFrom = server.output().length;
    const before = model.requests.length;
    const posted = await call("POST", `/api/sessions/${s.id}/messages`, { token: s.token, body: { role: "user", content: "delete me while you think" } });
    expect(posted.status, posted.text).toBe(202);
    await until(() => model.requests.length > before, 10_000, "the run's model request");
    expect((await call("DELETE", `/api/sessions/${s.id}`, { token: s.token })).status).toBe(204);
    // Deleting the session cancels its run, which aborts the slow model request;
    // wait past the time its answer would have taken, then look for complaints.
    await new Promise((r) => setTimeout(r, 2500));
    const complaints = server.output().slice(logFrom).split("\n").filter((l) => /unhandledRejection|uncaught|does not exist|unexpected error/i.test(l));
    expect(complaints).toEqual([]);
    expect(server.proc.exitCode).toBeNull();
    expect((await call("GET", "/api/health")).status).toBe(200);
    expect((await call("GET", `/api/sessions/${s.id}`, { token: s.token })).status).toBe(403);
  });
});
