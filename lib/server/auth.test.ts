import { describe, expect, it } from "vitest";
import { bearerToken, browserCookieHeader, isSameOrigin, readCookie, readCookies } from "./auth";

describe("cookie and origin helpers", () => {
  it("reads bearer tokens and cookies", () => {
    expect(bearerToken("Bearer abc")).toBe("abc");
    expect(bearerToken("bearer  abc ")).toBe("abc");
    expect(bearerToken("Basic abc")).toBeNull();
    expect(bearerToken(null)).toBeNull();
    expect(readCookie("a=1; argus_browser=xyz; b=2", "argus_browser")).toBe("xyz");
    expect(readCookie("a=1", "argus_browser")).toBeNull();
    expect(readCookie("argus_browser=%E0%A4%A", "argus_browser")).toBeNull();
  });

  it("reads every value of a cookie sent several times, in order", () => {
    expect(readCookies("argus_browser=KNOWN; a=1; argus_browser=mine", "argus_browser")).toEqual(["KNOWN", "mine"]);
    expect(readCookies("argus_browser=; argus_browser=%E0%A4%A; x=argus_browser", "argus_browser")).toEqual([]);
    expect(readCookies(Array.from({ length: 20 }, (_, i) => `argus_browser=v${i}`).join("; "), "argus_browser")).toHaveLength(8);
  });

  it("names the cookie __Host- when it is Secure", () => {
    expect(browserCookieHeader("v", false)).toMatch(/^argus_browser=v; Path=\/; HttpOnly; SameSite=Lax/);
    expect(browserCookieHeader("v", true)).toMatch(/^__Host-argus_browser=v; Path=\/;.*; Secure$/);
    expect(browserCookieHeader("v", true)).not.toMatch(/Domain/i);
  });

  it("accepts same-origin requests and refuses cross-site ones", () => {
    expect(isSameOrigin({ origin: null, host: "h:1", secFetchSite: "same-origin" })).toBe(true);
    expect(isSameOrigin({ origin: "http://evil", host: "h:1", secFetchSite: "cross-site" })).toBe(false);
    expect(isSameOrigin({ origin: "http://h:1", host: "h:1", secFetchSite: null })).toBe(true);
    expect(isSameOrigin({ origin: "http://evil:1", host: "h:1", secFetchSite: null })).toBe(false);
    expect(isSameOrigin({ origin: null, host: "h:1", secFetchSite: null })).toBe(false);
  });
});
