import { describe, expect, it } from "vitest";
import { useArgusServer } from "@/tests/helpers/argus-server";

const argus = useArgusServer();

/**
 * Cookie planting, the step past fixation: a page on another port of this host (cookies ignore
 * ports) gives the person's browser the `argus_browser` value Argus issued to the attacker for
 * the attacker's own chat, and links the person to that chat (`/?s=<id>`). The person's browser
 * now opens it by cookie and what they type lands in a chat whose bearer token the attacker
 * holds. The person's page must not be able to write with a cookie it was not handed itself.
 */
describe("a cookie planted in the person's browser", () => {
  it("writes nothing into the planter's chat, and moves none of it into the person's list", async () => {
    const made = await argus.call("POST", "/api/sessions");
    expect(made.status).toBe(201);
    const attacker = { id: made.json.id as string, token: made.json.token as string, cookie: made.headers.get("set-cookie")!.split(";")[0]! };
    const host = new URL(argus.server.url).host;
    // What Chromium sends for a fetch by Argus's own page, which holds no proof for the planted value.
    const victimBrowser = { cookie: attacker.cookie, origin: `http://${host}`, "sec-fetch-site": "same-origin" };

    const typed = await argus.call("PATCH", `/api/sessions/${attacker.id}`, { body: { title: "my private question" }, headers: victimBrowser });
    // The planted value counts for nothing here: the page holds no proof for it.
    expect(typed.status, typed.text).toBe(401);
    expect(typed.json.error.code).toBe("unauthorized:session");
    const seen = await argus.call("GET", `/api/sessions/${attacker.id}`, { token: attacker.token });
    expect(seen.json.title).toBeNull();

    // The person starts a chat of their own: the planted value's chats do not join their list.
    const own = await argus.call("POST", "/api/sessions", { headers: victimBrowser });
    expect(own.status).toBe(201);
    const ownCookie = own.headers.getSetCookie()[0]!.split(";")[0]!;
    const proof = own.json.browserProof as string;
    expect(typeof proof).toBe("string");
    const listed = await argus.call("GET", "/api/sessions", { headers: { ...victimBrowser, cookie: ownCookie, "x-argus-browser-proof": proof } });
    expect(listed.json.sessions.map((s: { id: string }) => s.id)).toEqual([own.json.id]);
    // The person's own page, with the proof it was handed, writes as before.
    const mine = await argus.call("PATCH", `/api/sessions/${own.json.id}`, {
      body: { title: "mine" },
      headers: { ...victimBrowser, cookie: ownCookie, "x-argus-browser-proof": proof },
    });
    expect(mine.status, mine.text).toBe(200);
    // The attacker's own browser, with the proof Argus handed it, still opens the attacker's chat.
    const planter = await argus.call("PATCH", `/api/sessions/${attacker.id}`, {
      body: { title: "theirs" },
      headers: { ...victimBrowser, "x-argus-browser-proof": made.json.browserProof as string },
    });
    expect(planter.status, planter.text).toBe(200);
  });
});

describe("many planted cookies", () => {
  it("cannot push the person's own cookie out of the values read", async () => {
    const own = await argus.call("POST", "/api/sessions");
    const ownCookie = own.headers.get("set-cookie")!.split(";")[0]!;
    const host = new URL(argus.server.url).host;
    // Copies on longer paths (and, under a name, on Domain= variants) are sent before the person's own.
    const planted = Array.from({ length: 8 }, (_, i) => `argus_browser=planted${i}`).join("; ");
    const headers = { cookie: `${planted}; ${ownCookie}`, origin: `http://${host}`, "sec-fetch-site": "same-origin", "x-argus-browser-proof": own.json.browserProof as string };
    const listed = await argus.call("GET", "/api/sessions", { headers });
    expect(listed.json.sessions.map((s: { id: string }) => s.id)).toEqual([own.json.id]);
    const renamed = await argus.call("PATCH", `/api/sessions/${own.json.id}`, { body: { title: "still mine" }, headers });
    expect(renamed.status, renamed.text).toBe(200);
  });
});
