import { describe, expect, it } from "vitest";
import { useArgusServer } from "@/tests/helpers/argus-server";
import { TEST_REDIS } from "@/tests/helpers/test-engines";

const argus = useArgusServer();

async function newSession(cookie?: string) {
  const res = await argus.call("POST", "/api/sessions", cookie ? { headers: { cookie } } : {});
  expect(res.status).toBe(201);
  const setCookie = res.headers.get("set-cookie");
  return { id: res.json.id as string, token: res.json.token as string, cookie: setCookie?.split(";")[0] ?? cookie, proof: res.json.browserProof as string };
}

describe("sessions over HTTP", () => {
  it("creates a session with an id and a token, and mints the browser cookie anew at every creation", async () => {
    const res = await argus.call("POST", "/api/sessions");
    expect(res.status).toBe(201);
    expect(res.json.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof res.json.token).toBe("string");
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^argus_browser=[\w-]+;/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const again = await argus.call("POST", "/api/sessions", { headers: { cookie: cookie.split(";")[0]! } });
    const next = again.headers.getSetCookie();
    expect(next[0]).toMatch(/^argus_browser=[\w-]+; Path=\/;/);
    expect(next[0]!.split(";")[0]).not.toBe(cookie.split(";")[0]);
    // A cookie another page set on a narrower path (it would be sent first) is deleted.
    expect(next.slice(1)).toEqual(expect.arrayContaining([expect.stringMatching(/^argus_browser=; Path=\/api; Max-Age=0/)]));
  });

  it("lists only this browser's sessions, carried from cookie to cookie", async () => {
    const a1 = await newSession();
    const a2 = await newSession(a1.cookie);
    const b1 = await newSession();
    const listA = await argus.call("GET", "/api/sessions", { headers: { cookie: a2.cookie! } });
    expect(listA.status).toBe(200);
    const ids = listA.json.sessions.map((s: { id: string }) => s.id);
    expect(ids.sort()).toEqual([a1.id, a2.id].sort());
    expect(ids).not.toContain(b1.id);
    // The cookie a browser had before its last new chat opens nothing any more.
    expect((await argus.call("GET", "/api/sessions", { headers: { cookie: a1.cookie! } })).json.sessions).toEqual([]);
    expect((await argus.call("GET", `/api/sessions/${a1.id}`, { headers: { cookie: a1.cookie! } })).status).toBe(403);
    expect((await argus.call("GET", `/api/sessions/${a1.id}`, { headers: { cookie: a2.cookie! } })).status).toBe(200);
    expect((await argus.call("GET", "/api/sessions")).json.sessions).toEqual([]);
  });

  it("shows a session to its token or its browser, and to nobody else", async () => {
    const a = await newSession();
    const b = await newSession();
    const ok = await argus.call("GET", `/api/sessions/${a.id}`, { token: a.token });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ id: a.id, title: null, state: "idle", messages: [] });
    expect((await argus.call("GET", `/api/sessions/${a.id}`, { headers: { cookie: a.cookie! } })).status).toBe(200);

    const none = await argus.call("GET", `/api/sessions/${a.id}`);
    expect(none.status).toBe(401);
    expect(none.json.error.code).toBe("unauthorized:session");
    expect(none.json.error.message).toMatch(/token/);
    for (const probe of [
      { token: b.token },
      { token: "not-a-real-token" },
      { headers: { cookie: b.cookie! } },
    ]) {
      const res = await argus.call("GET", `/api/sessions/${a.id}`, probe);
      expect(res.status).toBe(403);
      expect(JSON.stringify(res.json)).not.toContain(a.id);
    }
    const guessed = await argus.call("GET", "/api/sessions/00000000-0000-4000-8000-000000000000", { token: a.token });
    expect(guessed.status).toBe(403);
  });

  it("renames and deletes a session", async () => {
    const s = await newSession();
    const renamed = await argus.call("PATCH", `/api/sessions/${s.id}`, { token: s.token, body: { title: "  Coins  " } });
    expect(renamed.status).toBe(200);
    expect((await argus.call("GET", `/api/sessions/${s.id}`, { token: s.token })).json.title).toBe("Coins");
    const settings = await argus.call("PATCH", `/api/sessions/${s.id}`, { token: s.token, body: { settings: { toolReview: false } } });
    expect(settings.json).toMatchObject({ title: "Coins", settings: { toolReview: false } });
    const badSetting = await argus.call("PATCH", `/api/sessions/${s.id}`, { token: s.token, body: { settings: { toolReview: "yes" } } });
    expect(badSetting.status).toBe(400);
    expect(badSetting.json.error.field).toBe("settings.toolReview");
    expect((await argus.call("DELETE", `/api/sessions/${s.id}`, { token: s.token })).status).toBe(204);
    expect((await argus.call("GET", `/api/sessions/${s.id}`, { token: s.token })).status).toBe(403);
  });

  it("returns the session's settings, as changed, with the transcript", async () => {
    const s = await newSession();
    const fresh = await argus.call("GET", `/api/sessions/${s.id}`, { token: s.token });
    expect(fresh.json.settings).toEqual({});
    const never = await argus.call("PATCH", `/api/sessions/${s.id}`, { token: s.token, body: { settings: { browserPolicyChecks: "never" } } });
    expect(never.status).toBe(200);
    expect((await argus.call("GET", `/api/sessions/${s.id}`, { token: s.token })).json.settings).toEqual({ browserPolicyChecks: "never" });
    await argus.call("PATCH", `/api/sessions/${s.id}`, { token: s.token, body: { settings: { toolReview: false, browserPolicyChecks: "ask" } } });
    expect((await argus.call("GET", `/api/sessions/${s.id}`, { token: s.token })).json.settings).toEqual({ toolReview: false, browserPolicyChecks: "ask" });
    const bad = await argus.call("PATCH", `/api/sessions/${s.id}`, { token: s.token, body: { settings: { browserPolicyChecks: "sometimes" } } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.field).toBe("settings.browserPolicyChecks");
  });

  it("refuses malformed bodies with the failing field and keeps serving", async () => {
    const s = await newSession();
    const bad = await argus.call("POST", `/api/sessions/${s.id}/messages`, {
      token: s.token,
      raw: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({ code: "bad_request:api", field: "body" });

    const cases: [unknown, string][] = [
      [{ role: "robot", content: "hi" }, "role"],
      [{ role: "user", content: 42 }, "content"],
      [{ role: "user", content: "   " }, "content"],
      [{ role: "user", content: "hi", media: ["nope"] }, "media.0"],
      [{ role: "user", content: "hi", extra: true }, "body"],
      [["an", "array"], "body"],
    ];
    for (const [body, field] of cases) {
      const res = await argus.call("POST", `/api/sessions/${s.id}/messages`, { token: s.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error.field, JSON.stringify(body)).toBe(field);
      expect(res.json.error.message.length).toBeGreaterThan(5);
    }
    const wrongType = await argus.call("POST", `/api/sessions/${s.id}/messages`, {
      token: s.token,
      raw: "role=user",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(wrongType.status).toBe(415);
    const rename = await argus.call("PATCH", `/api/sessions/${s.id}`, { token: s.token, body: { title: "" } });
    expect(rename.status).toBe(400);
    expect(rename.json.error.field).toBe("title");
    // Still serving.
    expect((await argus.call("GET", "/api/health")).status).toBe(200);
  });

  it("validates messages, then answers 503 saying what to set when no model is configured", async () => {
    const s = await newSession();
    const other = await newSession();
    const foreign = await argus.call("POST", `/api/sessions/${s.id}/messages`, {
      token: s.token,
      body: { role: "user", content: "hi", media: ["00000000-0000-4000-8000-000000000000"] },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.json.error.field).toBe("media.0");
    const res = await argus.call("POST", `/api/sessions/${s.id}/messages`, { token: s.token, body: { role: "user", content: "hi" } });
    expect(res.status).toBe(503);
    expect(res.json.error.message).toMatch(/No model is configured: set OPENAI_API_KEY.*ARGUS_MODEL/);
    // Nothing was started or stored for a message that could not be answered.
    expect((await argus.call("GET", `/api/sessions/${s.id}`, { token: s.token })).json.messages).toEqual([]);
    expect((await argus.call("POST", `/api/sessions/${s.id}/cancel`, { token: s.token })).status).toBe(409);
    expect((await argus.call("POST", `/api/sessions/${s.id}/cancel`, { token: other.token })).status).toBe(403);
  });

  it("refuses the NUL character in a title or a message with a 400, on SQLite and Postgres alike", async () => {
    const s = await newSession();
    const nul = "before\u0000after";
    const cases = [
      { method: "POST", route: "/api/sessions", body: { title: nul }, field: "title" },
      { method: "PATCH", route: `/api/sessions/${s.id}`, body: { title: nul }, field: "title" },
      { method: "POST", route: `/api/sessions/${s.id}/messages`, body: { role: "user", content: nul }, field: "content" },
    ];
    for (const c of cases) {
      const res = await argus.call(c.method, c.route, { token: s.token, body: c.body });
      expect(res.status, `${c.method} ${c.route}: ${res.text}`).toBe(400);
      expect(res.json.error).toMatchObject({ code: "bad_request:api", field: c.field });
      expect(res.json.error.message).toMatch(/NUL/);
    }
    const view = await argus.call("GET", `/api/sessions/${s.id}`, { token: s.token });
    expect(view.json).toMatchObject({ title: null, messages: [] });
  });

  it("refuses cross-site writes that carry only the cookie", async () => {
    const s = await newSession();
    const host = new URL(argus.server.url).host;
    const crossSite = await argus.call("PATCH", `/api/sessions/${s.id}`, {
      body: { title: "pwned" },
      headers: { cookie: s.cookie!, origin: "http://evil.example", "sec-fetch-site": "cross-site" },
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.json.error.message).toMatch(/cross-site/i);
    const noOrigin = await argus.call("PATCH", `/api/sessions/${s.id}`, { body: { title: "x" }, headers: { cookie: s.cookie! } });
    expect(noOrigin.status).toBe(403);
    const sameSite = await argus.call("PATCH", `/api/sessions/${s.id}`, {
      body: { title: "mine" },
      headers: { cookie: s.cookie!, origin: `http://${host}`, "sec-fetch-site": "same-origin", "x-argus-browser-proof": s.proof },
    });
    expect(sameSite.status).toBe(200);
    // Reads by cookie alone stay allowed: that is how <img src> loads files.
    expect((await argus.call("GET", `/api/sessions/${s.id}`, { headers: { cookie: s.cookie! } })).json.title).toBe("mine");
  });

  it("reports health", async () => {
    const res = await argus.call("GET", "/api/health");
    expect(res.status).toBe(200);
    const down = "down";
    expect(res.json).toEqual({
      ok: true,
      db: "up",
      jupyter: "off",
      model: "not_configured",
      disk: "ok",
      isolation: "none",
      limits: "none",
      models: { conversation: down, planner: down, coder: down, vqa: down, judge: down },
      // The neural tools' engine, before any call: nothing loaded, an empty queue.
      vision: { state: "idle", models: expect.any(Array), rssBytes: expect.any(Number), queue: { running: 0, waiting: 0, limit: 16 } },
      // With REDIS_URL (the suite's second pass) health also names the instance and Redis.
      ...(TEST_REDIS ? { redis: "up", instance: expect.any(String) } : {}),
    });
  });
});
