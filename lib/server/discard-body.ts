/**
 * A request refused before its body was read (a 413 from the declared length,
 * a 401 before an upload) must still read that body before answering. If the
 * server answers and closes while the client is still sending, the unread
 * bytes make the kernel reset the connection, and the client gets a broken
 * pipe instead of the answer that says why. So the rest of the body is read
 * and thrown away first — but only up to a bound in bytes and time: a client
 * that keeps sending is answered and cut off rather than drained forever.
 */

/** How much of a refused body is read and thrown away before answering anyway. */
export const DISCARD_LIMIT_BYTES = 64 * 1024 * 1024;
/** How long a refused body may take to arrive. */
export const DISCARD_LIMIT_MS = 15_000;

/** Reads `reader` to its end, or until the bounds; true when the whole body was read. */
export async function discardRest(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  limits: { bytes?: number; ms?: number } = {},
): Promise<boolean> {
  const maxBytes = limits.bytes ?? DISCARD_LIMIT_BYTES;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), limits.ms ?? DISCARD_LIMIT_MS);
  });
  let read = 0;
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), timedOut]);
      if (next === "timeout") return false;
      if (next.done) return true;
      read += next.value.byteLength;
      if (read > maxBytes) return false;
    }
  } catch {
    // The client went away: nothing left to protect.
    return false;
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => undefined);
  }
}

/** Discards a request's unread body (see above); does nothing if it was read or is being read. */
export async function discardUnreadBody(req: Request): Promise<void> {
  if (!req.body || req.bodyUsed || req.body.locked) return;
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  // A body declared past the bound would be cut anyway: answer at once.
  if (Number.isFinite(declared) && declared > DISCARD_LIMIT_BYTES) return;
  await discardRest(req.body.getReader());
}
