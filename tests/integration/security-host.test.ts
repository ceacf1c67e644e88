import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { useArgusServer } from "@/tests/helpers/argus-server";

/**
 * DNS rebinding: a page on a name the attacker controls, re-pointed at
 * 127.0.0.1, is "same-origin" with itself — its Host and Origin both name the
 * attacker's domain. Argus answers only to the names it is served under.
 */

const ctx = useArgusServer();

/** A raw HTTP request with a chosen Host header (fetch does not let a caller set it). */
function send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; json: any }> {
  const url = new URL(ctx.server.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers: { ...headers, ...(body ? { "content-length": String(Buffer.byteLength(body)) } : {}) } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => {
        let json: unknown = null;
        try {
          json = JSON.parse(text);
        } catch {
          json = null;
        }
        resolve({ status: res.statusCode ?? 0, json });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

async function sessionCount(cookie: string): Promise<number> {
  const res = await ctx.call("GET", "/api/sessions", { headers: { cookie } });
  return (res.json.sessions as unknown[]).length;
}

describe("the Host check", () => {
  it("refuses a request addressed to a foreign name and creates nothing", async () => {
    const made = await ctx.call("POST", "/api/sessions", {});
    const cookie = made.headers.get("set-cookie")!.split(";")[0]!;
    const before = await sessionCount(cookie);
    const evil = "evil.example:" + new URL(ctx.server.url).port;
    const res = await send("POST", "/api/sessions", { host: evil, origin: `http://${evil}`, "sec-fetch-site": "same-origin", cookie, "content-type": "application/json" }, "{}");
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe("forbidden:api");
    expect(res.json.error.message).toMatch(/ARGUS_ALLOWED_HOSTS/);
    expect(await sessionCount(cookie)).toBe(before);
    // Reading is refused too: a rebound page could otherwise read the transcript.
    const read = await send("GET", `/api/sessions/${made.json.id}`, { host: evil, authorization: `Bearer ${made.json.token}` });
    expect(read.status).toBe(403);
    expect(JSON.stringify(read.json)).not.toContain(made.json.id);
    expect((await send("GET", "/", { host: evil })).status).toBe(403);
  });

  it("answers the names it is served under", async () => {
    const port = new URL(ctx.server.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`]) {
      expect((await send("GET", "/api/health", { host })).status, host).not.toBe(403);
    }
    expect((await send("GET", "/api/health", {})).status).not.toBe(403);
  });
});
