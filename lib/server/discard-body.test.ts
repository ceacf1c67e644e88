import { describe, expect, it } from "vitest";
import { discardRest, discardUnreadBody } from "./discard-body";

/** A stream of `count` chunks of `size` bytes, one per tick (or never ending). */
function body(size: number, count: number, gapMs = 0) {
  let sent = 0;
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      pulled++;
      if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
      if (sent >= count) return controller.close();
      sent++;
      controller.enqueue(new Uint8Array(size));
    },
  });
  return { stream, sent: () => sent, pulled: () => pulled };
}

describe("discardRest", () => {
  it("reads a body to its end", async () => {
    const b = body(1024, 50);
    expect(await discardRest(b.stream.getReader())).toBe(true);
    expect(b.sent()).toBe(50);
  });

  it("stops past its byte bound instead of draining forever", async () => {
    const b = body(1024, Number.POSITIVE_INFINITY);
    expect(await discardRest(b.stream.getReader(), { bytes: 10 * 1024 })).toBe(false);
    expect(b.sent()).toBeLessThanOrEqual(12);
  });

  it("stops at its time bound when the body trickles", async () => {
    const b = body(1, Number.POSITIVE_INFINITY, 20);
    expect(await discardRest(b.stream.getReader(), { ms: 100 })).toBe(false);
    const pulled = b.pulled();
    await new Promise((r) => setTimeout(r, 100));
    // Cancelled: nothing more is pulled once it gave up.
    expect(b.pulled()).toBeLessThanOrEqual(pulled + 1);
  });

  it("treats a client that goes away as done", async () => {
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error("socket hang up"));
      },
    });
    expect(await discardRest(stream.getReader())).toBe(false);
  });
});

describe("discardUnreadBody", () => {
  const post = (stream: ReadableStream<Uint8Array>, length?: number) =>
    new Request("http://localhost/x", { method: "POST", body: stream, duplex: "half", headers: length === undefined ? {} : { "content-length": String(length) } } as RequestInit);

  it("reads what nobody read", async () => {
    const b = body(1024, 20);
    const req = post(b.stream);
    await discardUnreadBody(req);
    expect(b.sent()).toBe(20);
  });

  it("leaves alone a body declared past the bound (it would be cut anyway)", async () => {
    const b = body(1024, 20);
    await discardUnreadBody(post(b.stream, 1024 * 1024 * 1024));
    // At most the one chunk a stream buffers ahead by itself.
    expect(b.sent()).toBeLessThanOrEqual(1);
  });

  it("leaves alone a body someone already reads", async () => {
    const b = body(1024, 20);
    const req = post(b.stream);
    const reader = req.body!.getReader();
    await reader.read();
    await discardUnreadBody(req);
    expect(b.sent()).toBeLessThanOrEqual(2);
  });
});
