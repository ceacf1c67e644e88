import { afterAll, describe, expect, it } from "vitest";
import { testDatabases } from "@/tests/helpers/test-database";
import {
  batchBlobsOfSession,
  batchCounts,
  cancelPendingItems,
  finishBatch,
  finishItem,
  getBatch,
  insertBatch,
  itemsOfBatch,
  markItemRunning,
  pendingItems,
  requeueRunningItems,
  runningBatches,
  takeRunningBatches,
  claimExpiredBatch,
  expiredBatchIds,
  renewBatchLeases,
  markItemsRunning,
  settleChunk,
  batchOwnership,
  cancelRunningItems,
} from "./batches";
import { blobInUse } from "./files";
import { insertSession } from "./sessions";

const dbs = testDatabases();
afterAll(() => dbs.cleanup());

const SHA = "d".repeat(64);

describe("batches (engine under test: ARGUS_TEST_DB)", () => {
  it("keeps a batch's items in order, resumes from the first unfinished, and cancels the rest", async () => {
    const db = await dbs.open("batches");
    await insertSession(db, { id: "s1", tokenHash: "h", browserHash: null, now: "t" });
    await insertBatch(
      db,
      { id: "b1", sessionId: "s1", functionName: "count_coins", functionVersion: 2, code: "def count_coins(p): pass", createdAt: "2026-01-01T00:00:00Z", owner: "argus-1" },
      [
        { fileName: "a.png", uploadId: null, blobSha256: SHA },
        { fileName: "bad.png", uploadId: null, blobSha256: null, failed: "Not an image." },
        { fileName: "c.png", uploadId: null, blobSha256: SHA },
        { fileName: "d.png", uploadId: null, blobSha256: SHA },
      ],
    );
    expect(await getBatch(db, "b1")).toMatchObject({ status: "running", total: 4, functionVersion: 2, code: "def count_coins(p): pass" });
    expect(await batchCounts(db, "b1")).toEqual({ pending: 3, running: 0, done: 0, failed: 1, cancelled: 0 });
    expect((await itemsOfBatch(db, "b1", { offset: 1, limit: 1 }))[0]).toMatchObject({ idx: 1, status: "failed", error: "Not an image." });

    expect(await markItemRunning(db, "b1", 0, "argus-1")).toBe(true);
    expect(await markItemRunning(db, "b1", 0, "argus-1")).toBe(false);
    await finishItem(db, "b1", 0, { status: "done", result: { count: 3, areas: [1.5] }, stdout: "hi", seconds: 0.25, error: null, overlayFileId: "f1" }, "t2", "argus-1");
    expect(await markItemRunning(db, "b1", 2, "argus-1")).toBe(true);
    // A server that died here left item 2 running: it goes back to pending, and resumes first.
    expect(await requeueRunningItems(db, "b1")).toBe(1);
    expect((await pendingItems(db, "b1")).map((i) => i.idx)).toEqual([2, 3]);
    expect((await runningBatches(db)).map((b) => b.id)).toEqual(["b1"]);
    // With several instances, each resumes only the batches it started (renewing their lease).
    expect((await renewBatchLeases(db, "argus-1", 5000)).map((b) => b.id)).toEqual(["b1"]);
    expect(await renewBatchLeases(db, "argus-2", 5000, true)).toEqual([]);

    const [done] = await itemsOfBatch(db, "b1", { offset: 0, limit: 1 });
    expect(done).toMatchObject({ status: "done", result: { count: 3, areas: [1.5] }, seconds: 0.25, overlayFileId: "f1" });

    // A cancel whose batch's owner died while running item 2: that item is ended too, the rest never ran.
    expect(await markItemRunning(db, "b1", 2, "argus-1")).toBe(true);
    expect(await cancelRunningItems(db, "b1", "t3", "owner gone")).toBe(1);
    expect(await cancelPendingItems(db, "b1", "t3")).toBe(1);
    expect(await finishBatch(db, "b1", "cancelled", "t3")).toBe(true);
    expect(await finishBatch(db, "b1", "done", "t4")).toBe(false);
    expect(await batchCounts(db, "b1")).toEqual({ pending: 0, running: 0, done: 1, failed: 1, cancelled: 2 });
    expect((await itemsOfBatch(db, "b1", { offset: 2, limit: 2 })).map((i) => [i.status, i.error])).toEqual([
      ["cancelled", "owner gone"],
      ["cancelled", "Cancelled before it ran."],
    ]);
    expect(await runningBatches(db)).toEqual([]);

    // The batch's own files keep their blob alive.
    expect(await blobInUse(db, SHA)).toBe(true);
    expect(await batchBlobsOfSession(db, "s1")).toEqual([SHA]);
    await db.close();
  });

  it("leases: an owner renews what it still owns; another instance takes over an expired batch, once", async () => {
    const db = await dbs.open("batch-leases");
    await insertSession(db, { id: "s1", tokenHash: "h", browserHash: null, now: "t" });
    const batch = (id: string, owner: string, leaseExpiresAt: number | null) =>
      insertBatch(db, { id, sessionId: "s1", functionName: "f", functionVersion: 1, code: "def f(p): pass", createdAt: `2026-01-01T00:00:0${id.at(-1)}Z`, owner, leaseExpiresAt }, [
        { fileName: "a.png", uploadId: null, blobSha256: SHA },
      ]);
    await batch("b1", "a", 1000);
    await batch("b2", "a", 5000);
    await batch("b3", "b", 1000);
    await batch("b4", "a", null); // a lone instance's batch: no lease, never taken over

    // At 2000, b1 (a's) ran out; b3 is b's own, b2 still runs, b4 has no lease.
    expect(await expiredBatchIds(db, "b", 2000)).toEqual(["b1"]);
    expect(await expiredBatchIds(db, "a", 2000)).toEqual(["b3"]);
    const taken = await claimExpiredBatch(db, "b1", "b", 2000, 12_000);
    expect(taken).toMatchObject({ id: "b1", status: "running" });
    // A second sweeper (or the same one again) finds nothing left to take.
    expect(await claimExpiredBatch(db, "b1", "c", 2000, 12_000)).toBeNull();
    expect(await claimExpiredBatch(db, "b2", "b", 2000, 12_000)).toBeNull();
    // a, waking up, renews only what it still owns: b1 is b's now.
    expect((await renewBatchLeases(db, "a", 3000)).map((r) => r.id)).toEqual(["b2", "b4"]);
    expect((await renewBatchLeases(db, "b", 3000)).map((r) => r.id)).toEqual(["b1", "b3"]);
    // A finished batch is nobody's to renew or take.
    await finishBatch(db, "b2", "done", "t");
    expect((await renewBatchLeases(db, "a", 4000)).map((r) => r.id)).toEqual(["b4"]);
    // b4 has a lease since a's keeper renewed it: when a stops renewing, b can take it over too.
    expect(await expiredBatchIds(db, "b", 99_999)).toEqual(["b4"]);
    // Who runs each and until when, as a cancel reads it (a BIGINT comes back a number on both engines).
    expect(await batchOwnership(db, "b1")).toEqual({ status: "running", owner: "b", leaseExpiresAt: 3000 });
    expect(await batchOwnership(db, "b2")).toEqual({ status: "done", owner: "a", leaseExpiresAt: 3000 });
    expect(await batchOwnership(db, "nope")).toBeNull();
    await db.close();
  });

  it("marks a chunk running at once, and settles it at once: outcomes for what ended, pending for what it did not reach", async () => {
    const db = await dbs.open("chunks");
    await insertSession(db, { id: "s1", tokenHash: "h", browserHash: null, now: "t" });
    const items = ["a", "b", "c", "d"].map((n) => ({ fileName: `${n}.png`, uploadId: null, blobSha256: SHA }));
    await insertBatch(db, { id: "b2", sessionId: "s1", functionName: "f", functionVersion: 1, code: "", createdAt: "t", owner: "argus-1" }, items);
    await cancelPendingItems(db, "b2", "t0"); // a cancel from another instance…
    await db.run("UPDATE batch_items SET status = 'pending', error = NULL WHERE batch_id = 'b2' AND idx <> 3");
    // …left item 3 cancelled: it is not marked running.
    expect(await markItemsRunning(db, "b2", [0, 1, 2, 3], "argus-1")).toEqual([0, 1, 2]);
    const ok = { status: "done" as const, result: 1, stdout: null, seconds: 0.1, error: null, overlayFileId: null };
    const timedOut = { status: "failed" as const, result: null, stdout: null, seconds: 2, error: "too slow", overlayFileId: null };
    expect(await settleChunk(db, "b2", [{ idx: 0, outcome: ok }, { idx: 1, outcome: timedOut }], [2], "t1", "argus-1")).toEqual([0, 1]);
    expect(await batchCounts(db, "b2")).toEqual({ pending: 1, running: 0, done: 1, failed: 1, cancelled: 1 });
    expect((await pendingItems(db, "b2")).map((i) => i.idx)).toEqual([2]);
    // Once the batch is another instance's, a stale owner's chunk takes and settles nothing.
    await db.run("UPDATE batches SET owner = 'argus-2' WHERE id = 'b2'");
    expect(await markItemsRunning(db, "b2", [2], "argus-1")).toEqual([]);
    expect(await markItemsRunning(db, "b2", [2], "argus-2")).toEqual([2]);
    expect(await settleChunk(db, "b2", [{ idx: 2, outcome: ok }], [], "t2", "argus-1")).toEqual([]);
    expect(await settleChunk(db, "b2", [], [2], "t2", "argus-1")).toEqual([]);
    expect(await batchCounts(db, "b2")).toEqual({ pending: 0, running: 1, done: 1, failed: 1, cancelled: 1 });
    await db.close();
  });

  it("fences item writes by owner: an owner that stalled past its lease and was taken over changes nothing", async () => {
    const db = await dbs.open("batch-fence");
    await insertSession(db, { id: "s1", tokenHash: "h", browserHash: null, now: "t" });
    const item = { fileName: "a.png", uploadId: null, blobSha256: SHA };
    await insertBatch(db, { id: "b1", sessionId: "s1", functionName: "f", functionVersion: 1, code: "def f(p): pass", createdAt: "2026-01-01T00:00:00Z", owner: "a", leaseExpiresAt: 1000 }, [item, item, item]);
    const outcome = (result: string) => ({ status: "done" as const, result, stdout: null, seconds: 0.1, error: null, overlayFileId: null });
    // a runs item 0, then stalls; its lease runs out and b takes the batch over, putting item 0 back.
    expect(await markItemRunning(db, "b1", 0, "a")).toBe(true);
    expect(await claimExpiredBatch(db, "b1", "b", 2000, 12_000)).not.toBeNull();
    expect(await requeueRunningItems(db, "b1")).toBe(1);
    // a wakes up before its next renewal tells it: it finishes item 0, takes item 1 and ends the batch.
    expect(await finishItem(db, "b1", 0, outcome("stale"), "t", "a")).toBe(false);
    expect(await markItemRunning(db, "b1", 1, "a")).toBe(false);
    expect(await finishBatch(db, "b1", "done", "t", "a")).toBe(false);
    // Nothing of that landed: b finds every item pending and runs the batch to its end.
    expect((await pendingItems(db, "b1")).map((i) => i.idx)).toEqual([0, 1, 2]);
    expect(await getBatch(db, "b1")).toMatchObject({ status: "running" });
    for (const idx of [0, 1, 2]) {
      expect(await markItemRunning(db, "b1", idx, "b")).toBe(true);
      expect(await finishItem(db, "b1", idx, outcome("fresh"), "t", "b")).toBe(true);
    }
    expect(await finishBatch(db, "b1", "done", "t", "b")).toBe(true);
    expect(await batchCounts(db, "b1")).toEqual({ pending: 0, running: 0, done: 3, failed: 0, cancelled: 0 });
    await db.close();
  });

  it("a lone instance takes every running batch as its own, whatever id started it", async () => {
    const db = await dbs.open("batch-lone");
    await insertSession(db, { id: "s1", tokenHash: "h", browserHash: null, now: "t" });
    await insertBatch(db, { id: "b1", sessionId: "s1", functionName: "f", functionVersion: 1, code: "def f(p): pass", createdAt: "2026-01-01T00:00:00Z", owner: "old-run" }, [{ fileName: "a.png", uploadId: null, blobSha256: SHA }]);
    expect((await takeRunningBatches(db, "new-run")).map((b) => b.id)).toEqual(["b1"]);
    expect(await markItemRunning(db, "b1", 0, "new-run")).toBe(true);
    await db.close();
  });
});
