import { isIP } from "node:net";

/**
 * The part of an address that names one client: IPv4 as is (mapped IPv6
 * included), IPv6 by its /64, since one machine usually holds a whole /64 and
 * could otherwise take a fresh address for every request.
 */
export function clientKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIP(address) !== 6) return address;
  return `${expandIpv6(address).slice(0, 4).join(":")}::/64`;
}

function expandIpv6(address: string): string[] {
  const [head = "", tail] = address.split("%")[0]!.split("::") as [string, string | undefined];
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill("0"), ...right].map((g) => g.toLowerCase().replace(/^0+(?=.)/, ""));
}
