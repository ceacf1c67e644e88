import { describe, expect, it } from "vitest";
import { moveCount, newActiveBatch, settledOrAfter } from "./active-batch";

describe("moveCount", () => {
  it("moves one item between statuses in the live counts", () => {
    const active = newActiveBatch(0);
    active.counts = { pending: 2, running: 0, done: 0, failed: 0, cancelled: 0 };
    moveCount(active, "pending", "running");
    moveCount(active, "running", "done");
    expect(active.counts).toEqual({ pending: 1, running: 0, done: 1, failed: 0, cancelled: 0 });
  });

  it("does nothing while no counts are kept (the database is read instead)", () => {
    const active = newActiveBatch(0);
    moveCount(active, "pending", "running");
    expect(active.counts).toBeNull();
  });
});

describe("settledOrAfter", () => {
  it("resolves when the work is done", async () => {
    let finish!: () => void;
    const done = new Promise<void>((r) => (finish = r));
    let settled = false;
    const waiting = settledOrAfter(done, Infinity).then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    finish();
    await waiting;
    expect(settled).toBe(true);
  });

  it("gives up waiting after the time given when the work never ends", async () => {
    await expect(settledOrAfter(new Promise<void>(() => undefined), 1)).resolves.toBeUndefined();
  });
});
