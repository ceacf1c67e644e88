import { describe, expect, it } from "vitest";
import { openDatabase } from "./database";
import { acquireLease, claimExpiredLease, expiredLeases, leaseOfSession, releaseLease, renewLeases } from "./run-leases";
import { insertSession } from "./sessions";

async function dbWithSession(id = "11111111-1111-4111-8111-111111111111") {
  const db = await openDatabase(":memory:");
  await insertSession(db, { id, tokenHash: "t", browserHash: null, now: new Date().toISOString() });
  return { db, sessionId: id };
}

describe("run leases", () => {
  it("gives a session's lease to one instance; the other sees who holds it", async () => {
    const { db, sessionId } = await dbWithSession();
    expect(await acquireLease(db, { sessionId, runId: "r1", owner: "a", expiresAt: 100 })).toMatchObject({ owner: "a", runId: "r1" });
    expect(await acquireLease(db, { sessionId, runId: "r2", owner: "b", expiresAt: 200 })).toMatchObject({ owner: "a", runId: "r1" });
    // The owner itself may start its next run under the same lease.
    expect(await acquireLease(db, { sessionId, runId: "r3", owner: "a", expiresAt: 300 })).toMatchObject({ owner: "a", runId: "r3", expiresAt: 300 });
  });

  it("renews only the owner's leases and releases only the owner's run", async () => {
    const { db, sessionId } = await dbWithSession();
    await acquireLease(db, { sessionId, runId: "r1", owner: "a", expiresAt: 100 });
    expect(await renewLeases(db, "b", 999)).toEqual([]);
    expect(await renewLeases(db, "a", 500)).toEqual([sessionId]);
    expect((await leaseOfSession(db, sessionId))?.expiresAt).toBe(500);
    expect(await releaseLease(db, { sessionId, runId: "other", owner: "a" })).toBe(false);
    expect(await releaseLease(db, { sessionId, runId: "r1", owner: "b" })).toBe(false);
    expect(await releaseLease(db, { sessionId, runId: "r1", owner: "a" })).toBe(true);
    expect(await leaseOfSession(db, sessionId)).toBeNull();
  });

  it("lets exactly one sweeper claim an expired lease, and none claim a renewed one", async () => {
    const { db, sessionId } = await dbWithSession();
    await acquireLease(db, { sessionId, runId: "r1", owner: "a", expiresAt: 100 });
    expect(await expiredLeases(db, 99)).toEqual([]);
    const [seen] = await expiredLeases(db, 100);
    expect(seen).toMatchObject({ owner: "a", runId: "r1" });
    // The owner came back in time and renewed: the lease seen expiring is not the one in the table.
    await renewLeases(db, "a", 1000);
    expect(await claimExpiredLease(db, seen!)).toBe(false);
    const [again] = await expiredLeases(db, 1000);
    expect(await claimExpiredLease(db, again!)).toBe(true);
    expect(await claimExpiredLease(db, again!)).toBe(false);
  });

  it("goes with its session", async () => {
    const { db, sessionId } = await dbWithSession();
    await acquireLease(db, { sessionId, runId: "r1", owner: "a", expiresAt: 100 });
    await db.run("DELETE FROM sessions WHERE id = ?", [sessionId]);
    expect(await leaseOfSession(db, sessionId)).toBeNull();
  });
});
