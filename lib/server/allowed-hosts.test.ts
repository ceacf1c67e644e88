import { describe, expect, it } from "vitest";
import { allowedHosts, hostName, isAllowedHost } from "./allowed-hosts";

const machine = { hostname: "argus-box", addresses: ["10.1.2.3", "fe80::1"] };

describe("hostName", () => {
  it("drops the port and lower-cases", () => {
    expect(hostName("LocalHost:3000")).toBe("localhost");
    expect(hostName("[::1]:3000")).toBe("[::1]");
    expect(hostName("127.0.0.1")).toBe("127.0.0.1");
  });
  it("refuses malformed values", () => {
    expect(hostName("")).toBeNull();
    expect(hostName("[::1")).toBeNull();
    expect(hostName("a:b")).toBeNull();
    expect(hostName("[::1]x")).toBeNull();
  });
});

describe("allowedHosts", () => {
  it("defaults to the bind address and loopback, on any port", () => {
    const allowed = allowedHosts(null, "127.0.0.1", machine);
    for (const ok of ["127.0.0.1:3000", "localhost:1", "[::1]:3000", "127.0.0.1"]) expect(isAllowedHost(ok, allowed)).toBe(true);
    for (const bad of ["evil.example:3000", "evil.example", "argus-box:3000", "10.1.2.3:3000", undefined, ""]) expect(isAllowedHost(bad, allowed)).toBe(false);
  });

  it("bound to every interface, also takes the machine's name and own addresses", () => {
    const allowed = allowedHosts(null, "0.0.0.0", machine);
    for (const ok of ["argus-box:3000", "10.1.2.3:3000", "[fe80::1]:3000", "localhost:3000"]) expect(isAllowedHost(ok, allowed)).toBe(true);
    expect(isAllowedHost("evil.example:3000", allowed)).toBe(false);
  });

  it("takes a configured list (plus loopback), or * for any", () => {
    const allowed = allowedHosts("argus.example.com, Other.Example, 10.0.0.5:3000, fd00::2", "0.0.0.0", machine);
    expect(isAllowedHost("10.0.0.5:8080", allowed)).toBe(true);
    expect(isAllowedHost("[fd00::2]:3000", allowed)).toBe(true);
    expect(isAllowedHost("argus.example.com", allowed)).toBe(true);
    expect(isAllowedHost("other.example:8443", allowed)).toBe(true);
    expect(isAllowedHost("127.0.0.1:3000", allowed)).toBe(true);
    expect(isAllowedHost("argus-box:3000", allowed)).toBe(false);
    expect(isAllowedHost("anything.example", allowedHosts("*", "127.0.0.1", machine))).toBe(true);
  });
});
