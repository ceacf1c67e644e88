import { describe, expect, it } from "vitest";
import { useArgusServer } from "@/tests/helpers/argus-server";

/**
 * Sessions need no account, so a script could create them without end (5 000
 * in 23 s filled the database). Each client now has a budget per minute, by
 * the socket's address, which it cannot choose: a new cookie or a forged
 * forwarding header buys nothing.
 */
const argus = useArgusServer({ ARGUS_SESSION_RATE_PER_MINUTE: "1" });

describe("session creation rate", () => {
  it("refuses a client past its budget with 429, Retry-After and a plain message", async () => {
    expect((await argus.call("POST", "/api/sessions")).status).toBe(201);
    const refused = await argus.call("POST", "/api/sessions", {
      headers: { "x-forwarded-for": "203.0.113.9", "x-argus-client-address": "203.0.113.10", "x-real-ip": "203.0.113.11" },
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.json.error.code).toBe("rate_limited:session");
    expect(refused.json.error.message).toMatch(/try again in/i);
    expect(refused.headers.get("set-cookie")).toBeNull();
    // Reading is not limited.
    expect((await argus.call("GET", "/api/sessions")).status).toBe(200);
  });
});
