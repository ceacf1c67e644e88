import { describe, expect, it } from "vitest";
import { clientAddress, trustedProxies, trustedProxiesProblem } from "./trusted-proxies";

describe("trustedProxies", () => {
  it("takes addresses and CIDR ranges of both families, IPv4-mapped peers included", () => {
    const proxies = trustedProxies(" 10.0.0.5, 172.28.0.0/16 ,fd00::/8");
    expect(proxies.has("10.0.0.5")).toBe(true);
    expect(proxies.has("10.0.0.6")).toBe(false);
    expect(proxies.has("172.28.3.4")).toBe(true);
    expect(proxies.has("::ffff:172.28.3.4")).toBe(true);
    expect(proxies.has("fd12::1")).toBe(true);
    expect(proxies.has("not an address")).toBe(false);
  });

  it("says which entry is wrong", () => {
    expect(trustedProxiesProblem("10.0.0.5, 172.28.0.0/16")).toBeNull();
    expect(trustedProxiesProblem("")).toBeNull();
    expect(trustedProxiesProblem("10.0.0.5,proxy.example")).toMatch(/"proxy.example" is not an IP address/);
    expect(trustedProxiesProblem("10.0.0.0/33")).toMatch(/prefix length must be 0 to 32/);
    expect(trustedProxiesProblem("10.0.0.0/8/1")).toMatch(/not an IP address or CIDR/);
    expect(() => trustedProxies("*")).toThrow(/ARGUS_TRUSTED_PROXIES/);
  });
});

describe("clientAddress", () => {
  const none = trustedProxies("");
  const lb = trustedProxies("172.28.0.0/16");

  it("ignores X-Forwarded-For by default, and from any peer that is not a trusted proxy", () => {
    expect(clientAddress("203.0.113.7", "198.51.100.1", none)).toBe("203.0.113.7");
    expect(clientAddress("172.28.0.2", "198.51.100.1", none)).toBe("172.28.0.2");
    expect(clientAddress("203.0.113.7", "198.51.100.1", lb)).toBe("203.0.113.7");
    expect(clientAddress("::ffff:203.0.113.7", undefined, lb)).toBe("203.0.113.7");
  });

  it("from a trusted proxy, takes the nearest address that is not a proxy; what the client wrote further left counts for nothing", () => {
    expect(clientAddress("172.28.0.2", "198.51.100.1", lb)).toBe("198.51.100.1");
    // The client sent "X-Forwarded-For: 1.2.3.4"; nginx appended the address it saw.
    expect(clientAddress("::ffff:172.28.0.2", "1.2.3.4, 198.51.100.1", lb)).toBe("198.51.100.1");
    expect(clientAddress("172.28.0.2", ["1.2.3.4", "198.51.100.1, 172.28.0.9"], lb)).toBe("198.51.100.1");
  });

  it("stops at a hop that is not an address, and falls back to the proxy when the header is all proxies", () => {
    expect(clientAddress("172.28.0.2", "garbage", lb)).toBe("172.28.0.2");
    expect(clientAddress("172.28.0.2", "198.51.100.1, garbage, 172.28.0.9", lb)).toBe("172.28.0.9");
    expect(clientAddress("172.28.0.2", "172.28.0.9", lb)).toBe("172.28.0.9");
  });
});
