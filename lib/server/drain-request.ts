import type { IncomingMessage, ServerResponse } from "node:http";

/** How much of a refused body is read and thrown away before the connection is cut. */
export const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * A request answered before its body was read (a 413 from the declared
 * length, a 401 before an upload): closing the socket while the client is
 * still sending makes the kernel reset the connection, and the client may
 * never read the answer. So once the answer is out, the rest of the body is
 * read and thrown away (Node discards it once the response is finished) — but
 * only up to a bound: a client that keeps sending is cut off rather than
 * drained forever.
 */
export function drainAfterAnswer(req: IncomingMessage, res: ServerResponse, limit = DRAIN_LIMIT_BYTES): void {
  res.once("finish", () => {
    if (req.complete || req.destroyed) return;
    const socket = req.socket;
    let drained = 0;
    const count = (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > limit) socket.destroy();
    };
    socket.on("data", count);
    req.once("end", () => socket.off("data", count));
    socket.once("close", () => socket.off("data", count));
    req.resume();
    socket.resume();
  });
}
