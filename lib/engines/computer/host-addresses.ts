/**
 * Every address of this machine's own network interfaces, so the browser is
 * kept off this machine however it is addressed: a service listening on
 * 0.0.0.0 answers on the host's public address too, which no range table
 * can know. os.networkInterfaces() costs about 0.2 ms a call (bench/
 * host-addresses.ts), too much for every resource of every page, so the set
 * is reused for at most REFRESH_MS: an address an interface gains is refused
 * within that time, without a timer to stop.
 */
import os from "node:os";
import { canonicalAddress, type OwnAddresses } from "../../foundation/net/ip-address";

export const REFRESH_MS = 1_000;

/** The canonical addresses of a networkInterfaces() answer. Pure. */
export function addressesOf(interfaces: NodeJS.Dict<os.NetworkInterfaceInfo[]>): Set<string> {
  const own = new Set<string>();
  for (const infos of Object.values(interfaces)) {
    for (const info of infos ?? []) {
      const key = canonicalAddress(info.address);
      if (key) own.add(key);
    }
  }
  return own;
}

let cached: { own: OwnAddresses; read: number } | null = null;

/** This machine's addresses now (at most REFRESH_MS old). */
export function hostAddresses(now = Date.now()): OwnAddresses {
  if (cached && now - cached.read < REFRESH_MS && now >= cached.read) return cached.own;
  cached = { own: addressesOf(os.networkInterfaces()), read: now };
  return cached.own;
}
