import { BlockList, isIP } from "node:net";

/**
 * Whose X-Forwarded-For Argus believes (ARGUS_TRUSTED_PROXIES): the load balancers in front of it,
 * by address or CIDR range. From any other peer the header is ignored, since anyone can write it;
 * with the list empty (the default) it is ignored from everyone. Pure apart from node:net.
 */
export interface TrustedProxies {
  /** Whether this address is one of the configured proxies. */
  has(address: string): boolean;
}

/** `10.0.0.5`, `172.28.0.0/16`, `::1`, `fd00::/8`: one entry, or the reason it is not one. */
function parseEntry(entry: string): { address: string; prefix: number | null; family: "ipv4" | "ipv6" } | string {
  const [address = "", prefixText, ...rest] = entry.split("/");
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return `"${entry}" is not an IP address or CIDR range`;
  const family = version === 4 ? "ipv4" : "ipv6";
  if (prefixText === undefined) return { address, prefix: null, family };
  const max = version === 4 ? 32 : 128;
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > max) return `"${entry}": the prefix length must be 0 to ${max}`;
  return { address, prefix: Number(prefixText), family };
}

/** The comma-separated list's problem in plain words, or null when every entry is an address or a range. */
export function trustedProxiesProblem(list: string): string | null {
  for (const entry of splitList(list)) {
    const parsed = parseEntry(entry);
    if (typeof parsed === "string") return parsed;
  }
  return null;
}

function splitList(list: string): string[] {
  return list
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);
}

/** IPv4 peers reach a dual-stack server as `::ffff:a.b.c.d`; they are compared as IPv4. */
function unmapped(address: string): string {
  return /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address;
}

export function trustedProxies(list: string): TrustedProxies {
  const blocks = new BlockList();
  for (const entry of splitList(list)) {
    const parsed = parseEntry(entry);
    if (typeof parsed === "string") throw new Error(`ARGUS_TRUSTED_PROXIES: ${parsed}`);
    if (parsed.prefix === null) blocks.addAddress(parsed.address, parsed.family);
    else blocks.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  return {
    has: (address) => {
      const plain = unmapped(address);
      const version = isIP(plain);
      return version !== 0 && blocks.check(plain, version === 4 ? "ipv4" : "ipv6");
    },
  };
}

/**
 * The client a request comes from. The socket's peer, unless the peer is a trusted proxy: then
 * X-Forwarded-For is read from the right (each proxy appends the address it was reached from),
 * skipping trusted proxies, and the first address that is not one is the client. Anything left of
 * it was written by the client and proves nothing. An entry that is not an address ends the walk
 * at the last proxy that wrote a good one.
 */
export function clientAddress(peer: string, forwardedFor: string | string[] | undefined, proxies: TrustedProxies): string {
  if (!proxies.has(peer) || forwardedFor === undefined) return unmapped(peer);
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor).split(",").map((h) => h.trim());
  let client = unmapped(peer);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = unmapped(hops[i]!);
    if (isIP(hop) === 0) return client;
    client = hop;
    if (!proxies.has(hop)) return hop;
  }
  return client;
}
