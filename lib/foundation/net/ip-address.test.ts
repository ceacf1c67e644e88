import { describe, expect, it } from "vitest";
import { classifyAddress, parseIPv4, parseIPv6 } from "./ip-address";

describe("parseIPv4", () => {
  it("reads dotted quads and nothing else", () => {
    expect(parseIPv4("192.168.1.20")).toEqual([192, 168, 1, 20]);
    for (const bad of ["1.2.3", "1.2.3.4.5", "256.1.1.1", "0x7f.0.0.1", "1.2.3.-4", "", "a.b.c.d", "1..2.3"]) {
      expect(parseIPv4(bad), bad).toBeNull();
    }
  });
});

describe("parseIPv6", () => {
  it("expands ::, brackets, zone ids and an IPv4 tail", () => {
    expect(parseIPv6("::1")).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6("[fe80::1%eth0]")).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6("::ffff:127.0.0.1")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    expect(parseIPv6("2001:db8:0:0:0:0:0:1")).toEqual([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6("1::")).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
  });

  it("refuses what is not IPv6", () => {
    for (const bad of ["example.com", "1.2.3.4", "1:2:3:4:5:6:7", "1::2::3", "12345::", "1:2:3:4:5:6:7:8:9", "::ffff:1.2.3", "g::1"]) {
      expect(parseIPv6(bad), bad).toBeNull();
    }
  });
});

describe("classifyAddress", () => {
  const cases: Array<[string, string | null]> = [
    ["127.0.0.1", "loopback"],
    ["127.255.10.3", "loopback"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["172.32.0.1", "public"],
    ["192.168.0.10", "private"],
    ["100.64.0.1", "private"],
    ["fc00::1", "private"],
    ["fd12:3456::1", "private"],
    ["169.254.169.254", "link-local"],
    ["fe80::abcd", "link-local"],
    ["febf::1", "link-local"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["::", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["ff02::1", "multicast"],
    ["255.255.255.255", "multicast"], // limited broadcast
    ["8.8.8.8", "public"],
    ["93.184.216.34", "public"],
    ["2606:4700::1111", "public"],
    // IPv6 spellings of IPv4 addresses take the IPv4 address's kind.
    ["::ffff:127.0.0.1", "loopback"],
    ["[::ffff:7f00:1]", "loopback"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:8.8.8.8", "public"],
    ["::127.0.0.1", "loopback"],
    ["64:ff9b::a9fe:a9fe", "link-local"],
    ["2002:c0a8:0101::1", "private"],
    ["2002:0808:0808::1", "public"],
    ["example.com", null],
    ["localhost", null],
  ];
  it.each(cases)("%s is %s", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});
