import type { IncomingMessage } from "node:http";

/**
 * Route handlers get a web Request without the socket, so server.ts copies
 * the socket's peer address into this header, overwriting whatever a client
 * sent under that name. X-Forwarded-For is never trusted: anyone can write it.
 */
const CLIENT_ADDRESS_HEADER = "x-argus-client-address";

export function stampClientAddress(req: IncomingMessage): void {
  req.headers[CLIENT_ADDRESS_HEADER] = req.socket.remoteAddress ?? "unknown";
}

export function clientAddressOf(req: Request): string {
  return req.headers.get(CLIENT_ADDRESS_HEADER) ?? "unknown";
}
