import os from "node:os";
import { describe, expect, it } from "vitest";
import { addressesOf, hostAddresses } from "../../engines/computer/host-addresses";
import { canonicalAddress, classifyAddress, parseIPv4, parseIPv6 } from "./ip-address";
import { IPV4_SPECIAL, IPV6_EMBEDDING, IPV6_SPECIAL } from "./special-addresses";

/** The last address of an IPv4 range. */
function lastIPv4(prefix: string, bits: number): string {
  const bytes = parseIPv4(prefix)!;
  const value = (((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) | (bits === 32 ? 0 : 0xffffffff >>> bits)) >>> 0;
  return [value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff].join(".");
}

/** The last address of an IPv6 range. */
function lastIPv6(prefix: string, bits: number): string {
  const groups = parseIPv6(prefix)!.map((g, i) => {
    const fixed = Math.max(0, Math.min(16, bits - i * 16));
    return g | (fixed === 16 ? 0 : 0xffff >> fixed);
  });
  return groups.map((g) => g.toString(16)).join(":");
}

describe("the IANA IPv4 special-purpose registry", () => {
  it.each(IPV4_SPECIAL.map((r) => [`${r.prefix}/${r.bits}`, r] as const))("%s: first and last address refused", (_name, range) => {
    expect(classifyAddress(range.prefix)).toBe(range.kind);
    // 255.255.255.255 ends 240.0.0.0/4 too, and is listed before it as the limited broadcast.
    if (range.prefix !== "240.0.0.0") expect(classifyAddress(lastIPv4(range.prefix, range.bits))).toBe(range.kind);
  });

  it("the documentation networks of the attack are refused, and their neighbours are not", () => {
    for (const address of ["192.0.2.2", "198.51.100.7", "203.0.113.250"]) expect(classifyAddress(address), address).toBe("documentation");
    for (const address of ["192.0.3.1", "198.51.101.1", "203.0.114.1", "192.31.197.1"]) expect(classifyAddress(address), address).toBe("public");
  });

  it("covers AS112, AMT, the 6to4 relay, benchmarking and the IETF block", () => {
    for (const address of ["192.31.196.1", "192.52.193.1", "192.88.99.1", "192.175.48.1", "198.19.255.255", "192.0.0.9", "192.0.0.170"]) {
      expect(classifyAddress(address), address).toBe("reserved");
    }
  });
});

describe("the IANA IPv6 special-purpose registry", () => {
  it.each(IPV6_SPECIAL.map((r) => [`${r.prefix}/${r.bits}`, r] as const))("%s: first and last address refused", (_name, range) => {
    // Teredo (2001::/32) sits at the start of 2001::/23 and is judged by the addresses it carries.
    const first = range.prefix === "2001::" ? "2001:100::" : range.prefix;
    expect(classifyAddress(first)).toBe(range.kind);
    expect(classifyAddress(lastIPv6(range.prefix, range.bits))).toBe(range.kind);
  });

  it("anything outside 2000::/3 is reserved; global unicast is public", () => {
    for (const address of ["4000::1", "1234::1", "e000::1", "::2:0:0:1"]) expect(classifyAddress(address), address).not.toBe("public");
    // 2001:200::/23 is the first block after the IETF's 2001::/23.
    for (const address of ["2606:4700::1111", "2a00:1450:4001::1", "2001:200::1"]) expect(classifyAddress(address), address).toBe("public");
  });
});

describe("IPv6 forms that carry an IPv4 address", () => {
  it("lists each form with where its IPv4 address sits", () => {
    expect(IPV6_EMBEDDING.map((r) => `${r.prefix}/${r.bits} ${r.embedding}`)).toEqual([
      "::ffff:0:0/96 last32",
      "::ffff:0:0:0/96 last32",
      "64:ff9b::/96 last32",
      "64:ff9b:1::/48 nat64-48",
      "2002::/16 6to4",
      "2001::/32 teredo",
    ]);
  });

  it("IPv4-mapped and SIIT forms are judged by their IPv4 address", () => {
    expect(classifyAddress("::ffff:192.0.2.2")).toBe("documentation");
    expect(classifyAddress("::ffff:127.0.0.1")).toBe("loopback");
    expect(classifyAddress("::ffff:0:127.0.0.1")).toBe("loopback");
    expect(classifyAddress("::ffff:8.8.8.8")).toBe("public");
  });

  it("NAT64 64:ff9b::/96 reaches its IPv4 address; the local-use 64:ff9b:1::/48 is refused always", () => {
    expect(classifyAddress("64:ff9b::127.0.0.1")).toBe("loopback");
    expect(classifyAddress("64:ff9b::c000:202")).toBe("documentation");
    expect(classifyAddress("64:ff9b::8.8.8.8")).toBe("public");
    expect(classifyAddress("64:ff9b:1::10.0.0.1")).toBe("private");
    // 10.0.0.1 in RFC 6052's /48 layout: 0a00 in bits 48-63, 00 01 after the u octet.
    expect(classifyAddress("64:ff9b:1:a00:1:0:0:0")).toBe("private");
    expect(classifyAddress("64:ff9b:1::8.8.8.8")).toBe("reserved");
  });

  it("6to4 2002::/16 is judged by the IPv4 address in bits 16-47", () => {
    expect(classifyAddress("2002:7f00:1::1")).toBe("loopback");
    expect(classifyAddress("2002:c000:0202::1")).toBe("documentation");
    expect(classifyAddress("2002:a9fe:a9fe::")).toBe("link-local");
    expect(classifyAddress("2002:0808:0808::1")).toBe("public");
  });

  it("Teredo 2001::/32 names its server or inverted client when either is special, and is refused anyway", () => {
    // Client 127.0.0.1 inverted: 80ff:fffe.
    expect(classifyAddress("2001:0:0808:0808::80ff:fffe")).toBe("loopback");
    expect(classifyAddress("2001:0:c000:0202::f7f7:f7f7")).toBe("documentation");
    expect(classifyAddress("2001:0:0808:0808::f7f7:f7f7")).toBe("reserved");
  });
});

describe("this machine's own addresses", () => {
  const own = new Set([canonicalAddress("8.8.4.4")!, canonicalAddress("2606:4700::1")!]);

  it("a public-looking address of an interface is this host, in every spelling", () => {
    expect(classifyAddress("8.8.4.4", own)).toBe("this-host");
    expect(classifyAddress("::ffff:8.8.4.4", own)).toBe("this-host");
    expect(classifyAddress("64:ff9b::808:404", own)).toBe("this-host");
    expect(classifyAddress("2002:0808:0404::1", own)).toBe("this-host");
    expect(classifyAddress("[2606:4700:0:0::0001]", own)).toBe("this-host");
    expect(classifyAddress("8.8.8.8", own)).toBe("public");
  });

  it("reads every interface's address, IPv6 zone or not", () => {
    const fake = {
      eth0: [
        { address: "203.0.113.5", family: "IPv4", internal: false },
        { address: "fe80::1", family: "IPv6", internal: false, scopeid: 2 },
      ],
      lo: [{ address: "127.0.0.1", family: "IPv4", internal: true }],
    } as unknown as NodeJS.Dict<os.NetworkInterfaceInfo[]>;
    expect([...addressesOf(fake)]).toEqual(["203.0.113.5", "fe80:0:0:0:0:0:0:1", "127.0.0.1"]);
  });

  it("hostAddresses holds every address this machine has now", () => {
    const now = Object.values(os.networkInterfaces()).flatMap((infos) => (infos ?? []).map((i) => canonicalAddress(i.address)));
    expect(now.length).toBeGreaterThan(1);
    for (const address of now) expect(hostAddresses().has(address!)).toBe(true);
  });
});
