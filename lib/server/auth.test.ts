import { describe, expect, it } from "vitest";
import { bearerToken, hashSecret, isSameOrigin, newSecret, readCookie, secretMatches } from "./auth";

describe("auth helpers", () => {
  it("matches a secret only against its own hash", () => {
    const a = newSecret();
    const b = newSecret();
    expect(a).not.toBe(b);
    expect(secretMatches(a, hashSecret(a))).toBe(true);
    expect(secretMatches(b, hashSecret(a))).toBe(false);
    expect(secretMatches(a, "00")).toBe(false);
  });

  it("reads bearer tokens and cookies", () => {
    expect(bearerToken("Bearer abc")).toBe("abc");
    expect(bearerToken("bearer  abc ")).toBe("abc");
    expect(bearerToken("Basic abc")).toBeNull();
    expect(bearerToken(null)).toBeNull();
    expect(readCookie("a=1; argus_browser=xyz; b=2", "argus_browser")).toBe("xyz");
    expect(readCookie("a=1", "argus_browser")).toBeNull();
    expect(readCookie("argus_browser=%E0%A4%A", "argus_browser")).toBeNull();
  });

  it("accepts same-origin requests and refuses cross-site ones", () => {
    expect(isSameOrigin({ origin: null, host: "h:1", secFetchSite: "same-origin" })).toBe(true);
    expect(isSameOrigin({ origin: "http://evil", host: "h:1", secFetchSite: "cross-site" })).toBe(false);
    expect(isSameOrigin({ origin: "http://h:1", host: "h:1", secFetchSite: null })).toBe(true);
    expect(isSameOrigin({ origin: "http://evil:1", host: "h:1", secFetchSite: null })).toBe(false);
    expect(isSameOrigin({ origin: null, host: "h:1", secFetchSite: null })).toBe(false);
  });
});
