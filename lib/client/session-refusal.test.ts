import { describe, expect, it } from "vitest";
import { ApiError } from "./api";
import { isRefusedSession, isSocketRefusal } from "./session-refusal";

describe("isRefusedSession", () => {
  it("is true for 401, 403 and 404 answers", () => {
    for (const status of [401, 403, 404]) expect(isRefusedSession(new ApiError(status, "x:session", "m"))).toBe(true);
  });
  it("is false for other failures, which are worth retrying or showing as they are", () => {
    expect(isRefusedSession(new ApiError(0, "unavailable:network", "offline"))).toBe(false);
    expect(isRefusedSession(new ApiError(500, "internal:api", "boom"))).toBe(false);
    expect(isRefusedSession(new ApiError(429, "rate_limit:session", "slow down"))).toBe(false);
    expect(isRefusedSession(new Error("403"))).toBe(false);
  });
});

describe("isSocketRefusal", () => {
  it("recognises the middleware's refusal codes", () => {
    const err = (code: unknown) => Object.assign(new Error("refused"), { data: { code } });
    expect(isSocketRefusal(err("forbidden:session"))).toBe(true);
    expect(isSocketRefusal(err("unauthorized:session"))).toBe(true);
    expect(isSocketRefusal(err("forbidden:socket"))).toBe(true);
    expect(isSocketRefusal(err("bad_request:socket"))).toBe(false);
    expect(isSocketRefusal(err(42))).toBe(false);
  });
  it("treats a transport failure (no code) as something to reconnect from", () => {
    expect(isSocketRefusal(new Error("xhr poll error"))).toBe(false);
    expect(isSocketRefusal(null)).toBe(false);
  });
});
