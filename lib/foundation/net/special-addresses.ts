/**
 * The IANA special-purpose address registries, in full, as data: every range
 * Argus's browser may not reach, each with the kind a refusal names and the
 * registry's own name and RFC, so a reader can check the tables against
 *   https://www.iana.org/assignments/iana-ipv4-special-registry/
 *   https://www.iana.org/assignments/iana-ipv6-special-registry/
 * Every entry is refused, including the few the registry marks globally
 * reachable (anycast services such as AS112 and AMT): none is a web site.
 * A few ranges outside those registries are added and say so: IPv4 multicast,
 * the deprecated IPv6 forms, and IPv6 outside 2000::/3, which IANA has not
 * assigned for global unicast.
 *
 * IPv6 forms that carry an IPv4 address (IPv4-mapped, NAT64, 6to4, Teredo)
 * are listed apart, with where the IPv4 address sits: they reach that IPv4
 * host, so they are judged as it is (ip-address.ts).
 */

export type AddressKind =
  | "public"
  | "loopback"
  | "private"
  | "link-local"
  | "unspecified"
  | "multicast"
  | "documentation"
  | "reserved"
  /** One of the addresses of this machine's own interfaces (host-addresses.ts). */
  | "this-host";

export interface SpecialRange {
  /** The range's first address, in the usual text form. */
  prefix: string;
  bits: number;
  kind: Exclude<AddressKind, "public" | "this-host">;
  /** The registry's name for it. */
  name: string;
  source: string;
}

export const IPV4_SPECIAL: readonly SpecialRange[] = [
  { prefix: "0.0.0.0", bits: 8, kind: "unspecified", name: '"This network" (0.0.0.0 reaches the local host on Linux)', source: "RFC 791" },
  { prefix: "10.0.0.0", bits: 8, kind: "private", name: "Private-Use", source: "RFC 1918" },
  { prefix: "100.64.0.0", bits: 10, kind: "private", name: "Shared Address Space (carrier-grade NAT)", source: "RFC 6598" },
  { prefix: "127.0.0.0", bits: 8, kind: "loopback", name: "Loopback", source: "RFC 1122" },
  { prefix: "169.254.0.0", bits: 16, kind: "link-local", name: "Link Local (cloud metadata services live here)", source: "RFC 3927" },
  { prefix: "172.16.0.0", bits: 12, kind: "private", name: "Private-Use", source: "RFC 1918" },
  { prefix: "192.0.0.0", bits: 24, kind: "reserved", name: "IETF Protocol Assignments (DS-Lite, PCP and TURN anycast, NAT64 discovery...)", source: "RFC 6890" },
  { prefix: "192.0.2.0", bits: 24, kind: "documentation", name: "Documentation (TEST-NET-1)", source: "RFC 5737" },
  { prefix: "192.31.196.0", bits: 24, kind: "reserved", name: "AS112-v4", source: "RFC 7535" },
  { prefix: "192.52.193.0", bits: 24, kind: "reserved", name: "AMT", source: "RFC 7450" },
  { prefix: "192.88.99.0", bits: 24, kind: "reserved", name: "Deprecated (6to4 Relay Anycast)", source: "RFC 7526" },
  { prefix: "192.168.0.0", bits: 16, kind: "private", name: "Private-Use", source: "RFC 1918" },
  { prefix: "192.175.48.0", bits: 24, kind: "reserved", name: "Direct Delegation AS112 Service", source: "RFC 7534" },
  { prefix: "198.18.0.0", bits: 15, kind: "reserved", name: "Benchmarking", source: "RFC 2544" },
  { prefix: "198.51.100.0", bits: 24, kind: "documentation", name: "Documentation (TEST-NET-2)", source: "RFC 5737" },
  { prefix: "203.0.113.0", bits: 24, kind: "documentation", name: "Documentation (TEST-NET-3)", source: "RFC 5737" },
  { prefix: "255.255.255.255", bits: 32, kind: "multicast", name: "Limited Broadcast", source: "RFC 8190" },
  { prefix: "240.0.0.0", bits: 4, kind: "reserved", name: "Reserved", source: "RFC 1112" },
  // Not in the special-purpose registry (it has a registry of its own), refused all the same.
  { prefix: "224.0.0.0", bits: 4, kind: "multicast", name: "Multicast", source: "RFC 5771" },
];

/** Where an IPv6 form keeps its IPv4 address. */
export type Embedding =
  /** The last 32 bits (IPv4-mapped, IPv4-compatible, SIIT, NAT64 /96). */
  | "last32"
  /** Bits 16-47 (6to4). */
  | "6to4"
  /** Bits 48-63 and 72-87, RFC 6052's /48 layout, as well as the last 32 bits. */
  | "nat64-48"
  /** The server in bits 32-63 and the client, inverted, in the last 32 bits (Teredo). */
  | "teredo";

export interface EmbeddingRange {
  prefix: string;
  bits: number;
  embedding: Embedding;
  /** Refused even when the IPv4 address it carries is public (the registry marks it not globally reachable). */
  alwaysRefused: boolean;
  name: string;
  source: string;
}

/** Checked before IPV6_SPECIAL, first match wins. `::` and `::1` are not IPv4-compatible addresses. */
export const IPV6_EMBEDDING: readonly EmbeddingRange[] = [
  { prefix: "::ffff:0:0", bits: 96, embedding: "last32", alwaysRefused: false, name: "IPv4-mapped Address", source: "RFC 4291" },
  { prefix: "::ffff:0:0:0", bits: 96, embedding: "last32", alwaysRefused: false, name: "IPv4-translated Address (SIIT; not in the registry)", source: "RFC 2765" },
  { prefix: "64:ff9b::", bits: 96, embedding: "last32", alwaysRefused: false, name: "IPv4-IPv6 Translation (NAT64)", source: "RFC 6052" },
  { prefix: "64:ff9b:1::", bits: 48, embedding: "nat64-48", alwaysRefused: true, name: "IPv4-IPv6 Translation, local use", source: "RFC 8215" },
  { prefix: "2002::", bits: 16, embedding: "6to4", alwaysRefused: false, name: "6to4", source: "RFC 3056" },
  { prefix: "2001::", bits: 32, embedding: "teredo", alwaysRefused: true, name: "TEREDO", source: "RFC 4380" },
];

export const IPV6_SPECIAL: readonly SpecialRange[] = [
  { prefix: "::1", bits: 128, kind: "loopback", name: "Loopback Address", source: "RFC 4291" },
  { prefix: "::", bits: 128, kind: "unspecified", name: "Unspecified Address", source: "RFC 4291" },
  // Deprecated IPv4-compatible addresses (::a.b.c.d) are judged by their IPv4 address in ip-address.ts.
  { prefix: "100::", bits: 64, kind: "reserved", name: "Discard-Only Address Block", source: "RFC 6666" },
  { prefix: "100:0:0:1::", bits: 64, kind: "reserved", name: "Dummy IPv6 Prefix", source: "RFC 9780" },
  { prefix: "2001:1::1", bits: 128, kind: "reserved", name: "Port Control Protocol Anycast", source: "RFC 7723" },
  { prefix: "2001:1::2", bits: 128, kind: "reserved", name: "Traversal Using Relays around NAT Anycast", source: "RFC 8155" },
  { prefix: "2001:1::3", bits: 128, kind: "reserved", name: "DNS-SD Service Registration Protocol Anycast", source: "RFC 9665" },
  { prefix: "2001:2::", bits: 48, kind: "reserved", name: "Benchmarking", source: "RFC 5180" },
  { prefix: "2001:3::", bits: 32, kind: "reserved", name: "AMT", source: "RFC 7450" },
  { prefix: "2001:4:112::", bits: 48, kind: "reserved", name: "AS112-v6", source: "RFC 7535" },
  { prefix: "2001:10::", bits: 28, kind: "reserved", name: "Deprecated (previously ORCHID)", source: "RFC 4843" },
  { prefix: "2001:20::", bits: 28, kind: "reserved", name: "ORCHIDv2", source: "RFC 7343" },
  { prefix: "2001:30::", bits: 28, kind: "reserved", name: "Drone Remote ID Protocol Entity Tags (DETs)", source: "RFC 9374" },
  { prefix: "2001::", bits: 23, kind: "reserved", name: "IETF Protocol Assignments", source: "RFC 2928" },
  { prefix: "2001:db8::", bits: 32, kind: "documentation", name: "Documentation", source: "RFC 3849" },
  { prefix: "2620:4f:8000::", bits: 48, kind: "reserved", name: "Direct Delegation AS112 Service", source: "RFC 7534" },
  { prefix: "3fff::", bits: 20, kind: "documentation", name: "Documentation", source: "RFC 9637" },
  { prefix: "5f00::", bits: 16, kind: "reserved", name: "Segment Routing (SRv6) SIDs", source: "RFC 9602" },
  { prefix: "fc00::", bits: 7, kind: "private", name: "Unique-Local", source: "RFC 4193" },
  { prefix: "fe80::", bits: 10, kind: "link-local", name: "Link-Local Unicast", source: "RFC 4291" },
  // Not in the registry, refused all the same.
  { prefix: "fec0::", bits: 10, kind: "private", name: "Site-Local (deprecated)", source: "RFC 3879" },
  { prefix: "ff00::", bits: 8, kind: "multicast", name: "Multicast", source: "RFC 4291" },
];

/** IPv6 outside this block is not assigned for global unicast (IANA's IPv6 address space registry). */
export const IPV6_GLOBAL_UNICAST = { prefix: "2000::", bits: 3 } as const;
