import { describe, expect, it } from "vitest";
import { Semaphore } from "./semaphore";

describe("Semaphore", () => {
  it("lets in at most `slots` at once, then the waiters in order", async () => {
    const s = new Semaphore(2);
    const order: string[] = [];
    const a = (await s.acquire())!;
    const b = (await s.acquire())!;
    const c = s.acquire().then((release) => (order.push("c"), release!));
    const d = s.acquire().then((release) => (order.push("d"), release!));
    await Promise.resolve();
    expect(order).toEqual([]);
    a();
    a(); // a second release of the same slot changes nothing
    const releaseC = await c;
    expect(order).toEqual(["c"]);
    b();
    (await d)();
    releaseC();
    expect(order).toEqual(["c", "d"]);
    // Both slots are free again: two acquire at once without waiting.
    await Promise.all([s.acquire(), s.acquire()]);
  });

  it("lets a waiter whose signal aborts leave the queue without taking a slot", async () => {
    const s = new Semaphore(1);
    const held = (await s.acquire())!;
    const abort = new AbortController();
    const gaveUp = s.acquire(abort.signal);
    const next = s.acquire();
    abort.abort();
    expect(await gaveUp).toBeNull();
    held();
    // The slot went to the waiter behind, not to the one that left.
    expect(await next).toEqual(expect.any(Function));
    expect(await s.acquire(AbortSignal.abort())).toBeNull();
  });

  it("tryAcquire takes a free slot at once, or answers null without queueing", async () => {
    const s = new Semaphore(2);
    const a = s.tryAcquire()!;
    const b = s.tryAcquire()!;
    expect(s.tryAcquire()).toBeNull();
    a();
    a(); // a second release gives nothing back
    const c = s.tryAcquire();
    expect(c).toEqual(expect.any(Function));
    expect(s.tryAcquire()).toBeNull();
    // A queued waiter is served before a later tryAcquire.
    const waiter = s.acquire();
    b();
    expect(await waiter).toEqual(expect.any(Function));
    expect(s.tryAcquire()).toBeNull();
  });
});
