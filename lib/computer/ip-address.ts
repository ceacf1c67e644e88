/**
 * What kind of address an IP literal is, so the browser can be kept off this
 * machine and its networks (SSRF). Pure. Hosts reach here already normalised
 * by the WHATWG URL parser (url-policy.ts), which turns `2130706433`, `0x7f.1`
 * and `0177.0.0.1` into `127.0.0.1`; this module only ever sees dotted quads
 * and IPv6 text.
 */

export type AddressKind = "public" | "loopback" | "private" | "link-local" | "unspecified" | "multicast" | "reserved";

/** Words for a person, used in refusals ("127.0.0.1 is a loopback address"). */
export const ADDRESS_KIND_WORDS: Record<Exclude<AddressKind, "public">, string> = {
  loopback: "a loopback address (this machine)",
  private: "a private network address",
  "link-local": "a link-local address",
  unspecified: "an unspecified address",
  multicast: "a multicast or broadcast address",
  reserved: "a reserved address",
};

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

function inIPv4(bytes: number[], base: [number, number, number, number], bits: number): boolean {
  const value = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
  const start = ((base[0] << 24) | (base[1] << 16) | (base[2] << 8) | base[3]) >>> 0;
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return (value & mask) >>> 0 === (start & mask) >>> 0;
}

const IPV4_RANGES: Array<[[number, number, number, number], number, AddressKind]> = [
  [[0, 0, 0, 0], 8, "unspecified"], // "this network"; 0.0.0.0 reaches the local host on Linux
  [[127, 0, 0, 0], 8, "loopback"],
  [[10, 0, 0, 0], 8, "private"],
  [[172, 16, 0, 0], 12, "private"],
  [[192, 168, 0, 0], 16, "private"],
  [[100, 64, 0, 0], 10, "private"], // carrier-grade NAT, often an operator's internal network
  [[169, 254, 0, 0], 16, "link-local"], // cloud metadata services live here
  [[192, 0, 0, 0], 24, "reserved"],
  [[198, 18, 0, 0], 15, "reserved"],
  [[224, 0, 0, 0], 4, "multicast"],
  [[240, 0, 0, 0], 4, "reserved"], // includes 255.255.255.255
];

export function classifyIPv4(bytes: number[]): AddressKind {
  for (const [base, bits, kind] of IPV4_RANGES) if (inIPv4(bytes, base, bits)) return kind;
  return "public";
}

/** The IPv4 address an IPv6 address carries, for the forms that route to it. */
function embeddedIPv4(g: number[]): number[] | null {
  const v4 = () => [g[6]! >> 8, g[6]! & 0xff, g[7]! >> 8, g[7]! & 0xff];
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return v4(); // ::ffff:a.b.c.d, IPv4-mapped
  if (zeros(0, 6) && (g[6] !== 0 || g[7]! > 1)) return v4(); // ::a.b.c.d, the deprecated IPv4-compatible form
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4(); // 64:ff9b::/96, NAT64
  if (g[0] === 0x2002) return [g[1]! >> 8, g[1]! & 0xff, g[2]! >> 8, g[2]! & 0xff]; // 2002::/16, 6to4
  return null;
}

export function classifyIPv6(g: number[]): AddressKind {
  if (g.every((x) => x === 0)) return "unspecified";
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return "loopback";
  const v4 = embeddedIPv4(g);
  if (v4) return classifyIPv4(v4);
  const first = g[0]!;
  if ((first & 0xfe00) === 0xfc00) return "private"; // fc00::/7, unique local
  if ((first & 0xffc0) === 0xfe80) return "link-local"; // fe80::/10
  if ((first & 0xffc0) === 0xfec0) return "private"; // fec0::/10, the old site-local
  if ((first & 0xff00) === 0xff00) return "multicast";
  if (first === 0x2001 && g[1] === 0x0db8) return "reserved"; // documentation
  return "public";
}

/** The kind of an IP literal, or null when the text is not one (a host name). */
export function classifyAddress(text: string): AddressKind | null {
  const v4 = parseIPv4(text);
  if (v4) return classifyIPv4(v4);
  const v6 = parseIPv6(text);
  if (v6) return classifyIPv6(v6);
  return null;
}
