import { describe, expect, it } from "vitest";
import { isArgusError } from "@/lib/foundation/errors";
import { SessionCreationLimit } from "./creation-rate";

function refusal(fn: () => void): { code: string; status: number; retryAfterSeconds?: number; message: string } {
  try {
    fn();
  } catch (error) {
    if (isArgusError(error)) return { code: error.code, status: error.status, retryAfterSeconds: error.retryAfterSeconds, message: error.message };
    throw error;
  }
  throw new Error("not refused");
}

describe("SessionCreationLimit", () => {
  it("refuses a client past its budget with a readable 429 and when to retry", () => {
    let now = 0;
    const limit = new SessionCreationLimit(3, () => now);
    for (let i = 0; i < 3; i++) limit.admit({ address: "10.0.0.1", browser: null });
    const r = refusal(() => limit.admit({ address: "10.0.0.1", browser: null }));
    expect(r).toMatchObject({ code: "rate_limited:session", status: 429, retryAfterSeconds: 20 });
    expect(r.message).toMatch(/try again in 20 seconds/i);
    expect(r.message).not.toMatch(/10\.0\.0\.1/);
    now = 20_000;
    limit.admit({ address: "10.0.0.1", browser: null });
  });

  it("does not let a client buy more with new cookies or new IPv6 addresses in its /64", () => {
    const limit = new SessionCreationLimit(2, () => 0);
    limit.admit({ address: "2001:db8::1", browser: "a" });
    limit.admit({ address: "2001:db8::2", browser: "b" });
    expect(refusal(() => limit.admit({ address: "2001:db8::3", browser: "c" })).status).toBe(429);
    limit.admit({ address: "2001:db9::1", browser: "c" });
  });

  it("keeps one browser to its budget across addresses", () => {
    const limit = new SessionCreationLimit(2, () => 0);
    limit.admit({ address: "10.0.0.1", browser: "a" });
    limit.admit({ address: "10.0.0.2", browser: "a" });
    expect(refusal(() => limit.admit({ address: "10.0.0.3", browser: "a" })).status).toBe(429);
  });
});
