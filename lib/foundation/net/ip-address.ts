/**
 * What kind of address an IP literal is, so the browser can be kept off this
 * machine and its networks (SSRF). Pure. Hosts reach here already normalised
 * by the WHATWG URL parser (url-policy.ts), which turns `2130706433`, `0x7f.1`
 * and `0177.0.0.1` into `127.0.0.1`; this module only ever sees dotted quads
 * and IPv6 text. The ranges themselves are data, in special-addresses.ts.
 */
import { IPV4_SPECIAL, IPV6_EMBEDDING, IPV6_GLOBAL_UNICAST, IPV6_SPECIAL, type AddressKind, type Embedding } from "./special-addresses";

export type { AddressKind };

/** Words for a person, used in refusals ("127.0.0.1 is a loopback address"). */
export const ADDRESS_KIND_WORDS: Record<Exclude<AddressKind, "public">, string> = {
  loopback: "a loopback address (this machine)",
  private: "a private network address",
  "link-local": "a link-local address",
  unspecified: "an unspecified address",
  multicast: "a multicast or broadcast address",
  documentation: "a documentation address (reserved for examples)",
  reserved: "a reserved address",
  "this-host": "one of this machine's own addresses",
};

/** Canonical text of the host's own addresses (host-addresses.ts); empty when not known. */
export type OwnAddresses = ReadonlySet<string>;
const NONE: OwnAddresses = new Set();

/** Strict dotted quad → four bytes, or null. */
export function parseIPv4(text: string): number[] | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const bytes: number[] = [];
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const value = Number(part);
    if (value > 255) return null;
    bytes.push(value);
  }
  return bytes;
}

/** IPv6 text (brackets and a zone id allowed) → eight 16-bit groups, or null. */
export function parseIPv6(text: string): number[] | null {
  let body = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const zone = body.indexOf("%");
  if (zone >= 0) body = body.slice(0, zone);
  if (!body.includes(":")) return null;
  // An embedded IPv4 tail (::ffff:1.2.3.4) becomes two groups.
  const lastColon = body.lastIndexOf(":");
  const tail = body.slice(lastColon + 1);
  if (tail.includes(".")) {
    const v4 = parseIPv4(tail);
    if (!v4) return null;
    body = `${body.slice(0, lastColon + 1)}${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}`;
  }
  const halves = body.split("::");
  if (halves.length > 2) return null;
  const parse = (half: string) => (half === "" ? [] : half.split(":"));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...rest];
  const values: number[] = [];
  for (const group of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return null;
    values.push(parseInt(group, 16));
  }
  return values;
}

function ipv4Value(bytes: number[]): number {
  return ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
}

function maskOf(bits: number): number {
  return bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
}

/** The tables of special-addresses.ts, parsed once. */
const V4_TABLE = IPV4_SPECIAL.map((range) => ({ start: ipv4Value(parseIPv4(range.prefix)!), mask: maskOf(range.bits), kind: range.kind }));
const v6Prefix = (prefix: string, bits: number) => ({ groups: parseIPv6(prefix)!, bits });
const V6_TABLE = IPV6_SPECIAL.map((range) => ({ ...v6Prefix(range.prefix, range.bits), kind: range.kind }));
const V6_EMBEDDING = IPV6_EMBEDDING.map((range) => ({ ...v6Prefix(range.prefix, range.bits), embedding: range.embedding, alwaysRefused: range.alwaysRefused }));
const V6_GLOBAL = v6Prefix(IPV6_GLOBAL_UNICAST.prefix, IPV6_GLOBAL_UNICAST.bits);

function inIPv6(g: number[], prefix: { groups: number[]; bits: number }): boolean {
  for (let i = 0, left = prefix.bits; left > 0; i += 1, left -= 16) {
    const mask = left >= 16 ? 0xffff : (0xffff << (16 - left)) & 0xffff;
    if ((g[i]! & mask) !== (prefix.groups[i]! & mask)) return false;
  }
  return true;
}

/** "a.b.c.d", or eight lower-case hex groups: how the host's own addresses are compared. */
function v4Key(bytes: number[]): string {
  return bytes.join(".");
}
function v6Key(g: number[]): string {
  return g.map((x) => x.toString(16)).join(":");
}

/** An IP literal's canonical text (as OwnAddresses holds it), or null when the text is not one. */
export function canonicalAddress(text: string): string | null {
  const v4 = parseIPv4(text);
  if (v4) return v4Key(v4);
  const v6 = parseIPv6(text);
  return v6 ? v6Key(v6) : null;
}

export function classifyIPv4(bytes: number[], own: OwnAddresses = NONE): AddressKind {
  const value = ipv4Value(bytes);
  for (const { start, mask, kind } of V4_TABLE) if ((value & mask) >>> 0 === (start & mask) >>> 0) return kind;
  return own.has(v4Key(bytes)) ? "this-host" : "public";
}

const v4At = (hi: number, lo: number) => [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff];

/** The IPv4 addresses an IPv6 form carries (one, or Teredo's server and client). */
function embeddedIPv4(g: number[], embedding: Embedding): number[][] {
  switch (embedding) {
    case "last32":
      return [v4At(g[6]!, g[7]!)];
    case "6to4":
      return [v4At(g[1]!, g[2]!)];
    case "nat64-48":
      // A /96 inside the /48 keeps it in the last 32 bits; RFC 6052's /48 layout puts 16 bits,
      // the reserved octet u, then 16 bits (and zeros last).
      return g[6] !== 0 || g[7] !== 0 ? [v4At(g[6]!, g[7]!)] : [v4At(g[3]!, ((g[4]! & 0xff) << 8) | (g[5]! >> 8))];
    case "teredo":
      return [v4At(g[2]!, g[3]!), v4At(g[6]! ^ 0xffff, g[7]! ^ 0xffff)];
  }
}

/** The most telling kind of several IPv4 addresses: the first that is not public. */
function worstOf(addresses: number[][], own: OwnAddresses): AddressKind {
  for (const bytes of addresses) {
    const kind = classifyIPv4(bytes, own);
    if (kind !== "public") return kind;
  }
  return "public";
}

export function classifyIPv6(g: number[], own: OwnAddresses = NONE): AddressKind {
  for (const range of V6_EMBEDDING) {
    if (!inIPv6(g, range)) continue;
    const kind = worstOf(embeddedIPv4(g, range.embedding), own);
    return kind === "public" && range.alwaysRefused ? "reserved" : kind;
  }
  for (const range of V6_TABLE) if (inIPv6(g, range)) return range.kind;
  // ::a.b.c.d, the deprecated IPv4-compatible form (:: and ::1 were matched above).
  if (g.slice(0, 6).every((x) => x === 0)) return classifyIPv4(v4At(g[6]!, g[7]!), own);
  if (!inIPv6(g, V6_GLOBAL)) return "reserved";
  return own.has(v6Key(g)) ? "this-host" : "public";
}

/** The kind of an IP literal, or null when the text is not one (a host name). `own`: the host's addresses. */
export function classifyAddress(text: string, own: OwnAddresses = NONE): AddressKind | null {
  const v4 = parseIPv4(text);
  if (v4) return classifyIPv4(v4, own);
  const v6 = parseIPv6(text);
  if (v6) return classifyIPv6(v6, own);
  return null;
}
