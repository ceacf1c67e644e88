import { hostname, networkInterfaces } from "node:os";

/**
 * DNS rebinding: a page on `evil.example` can make its own name resolve to
 * 127.0.0.1 and then talk to Argus as a same-origin page — its `Host` and
 * `Origin` both say `evil.example`, so comparing them proves nothing. The
 * defence is to answer only to names Argus is actually served under.
 */

/** `"any"` turns the check off (behind a proxy that checks the host itself). */
export type AllowedHosts = { any: true } | { any: false; names: ReadonlySet<string> };

const WILDCARD_BINDS = new Set(["0.0.0.0", "::", "[::]"]);
const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];

/** A host name as it appears in a `Host` header, lower-cased, IPv6 in brackets, without the port. */
export function hostName(header: string): string | null {
  const value = header.trim().toLowerCase();
  if (!value) return null;
  if (value.startsWith("[")) {
    const end = value.indexOf("]");
    if (end < 0) return null;
    const rest = value.slice(end + 1);
    if (rest && !/^:\d{1,5}$/.test(rest)) return null;
    return value.slice(0, end + 1);
  }
  const colon = value.indexOf(":");
  if (colon < 0) return value;
  if (!/^\d{1,5}$/.test(value.slice(colon + 1))) return null;
  return value.slice(0, colon);
}

/** A configured name as `hostName` would read it from a header: a bare IPv6 address gets brackets, a port is dropped. */
function normalise(name: string): string {
  const n = name.trim().toLowerCase();
  if (!n.startsWith("[") && (n.match(/:/g)?.length ?? 0) > 1) return `[${n}]`;
  return hostName(n) ?? n;
}

/**
 * The configured list (`ARGUS_ALLOWED_HOSTS`, comma-separated names, or `*`),
 * or by default the bind address and loopback. Bound to every interface
 * (0.0.0.0), the default also takes this machine's name and its own
 * addresses: an IP literal can't be rebound, and that is how other machines
 * on a LAN reach it. A DNS name in front of Argus must be listed.
 */
export function allowedHosts(configured: string | null, bindHost: string, machine = { hostname: hostname(), addresses: localAddresses() }): AllowedHosts {
  if (configured !== null && configured.trim() === "*") return { any: true };
  const names = new Set<string>(LOOPBACK);
  if (configured !== null && configured.trim() !== "") {
    for (const name of configured.split(",")) if (name.trim()) names.add(normalise(name));
    return { any: false, names };
  }
  if (WILDCARD_BINDS.has(bindHost)) {
    names.add(normalise(machine.hostname));
    for (const address of machine.addresses) names.add(normalise(address));
  } else {
    names.add(normalise(bindHost));
  }
  return { any: false, names };
}

function localAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .flatMap((i) => (i ? [i.address] : []));
}

export function isAllowedHost(header: string | undefined, allowed: AllowedHosts): boolean {
  if (allowed.any) return true;
  if (!header) return false;
  const name = hostName(header);
  return name !== null && allowed.names.has(name);
}
