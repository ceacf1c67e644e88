import type { IncomingMessage } from "node:http";
import { clientAddress, type TrustedProxies } from "@/lib/foundation/common/trusted-proxies";

/**
 * Route handlers get a web Request without the socket, so server.ts copies
 * the client's address into this header, overwriting whatever a client sent
 * under that name. That address is the socket's peer; X-Forwarded-For is read
 * only when the peer is a configured proxy (ARGUS_TRUSTED_PROXIES), never
 * otherwise: anyone can write it.
 */
const CLIENT_ADDRESS_HEADER = "x-argus-client-address";

export function stampClientAddress(req: IncomingMessage, proxies: TrustedProxies): void {
  req.headers[CLIENT_ADDRESS_HEADER] = clientAddress(req.socket.remoteAddress ?? "unknown", req.headers["x-forwarded-for"], proxies);
}

export function clientAddressOf(req: Request): string {
  return req.headers.get(CLIENT_ADDRESS_HEADER) ?? "unknown";
}
