import { afterAll, describe, expect, it } from "vitest";
import { testDatabases } from "@/tests/helpers/test-database";
import { acquireLease, leaseOfSession, renewLeases, takeOverRunLease } from "./run-leases";
import { insertSession } from "./sessions";

const dbs = testDatabases();
afterAll(() => dbs.cleanup());

/**
 * A dead owner's run taken over to go on elsewhere (lib/features/scale/run-takeover.ts): two sweepers, or
 * a sweeper and the owner restarted under its own id, race for the lease they saw expiring.
 * Exactly one resumes it (one kernel, one copy of each step), under a higher epoch; a second
 * takeover (the new owner died too) raises it again, and every earlier owner is fenced out.
 */
describe("taking over a run's lease to resume it", () => {
  it("lets exactly one of several instances take it, raises the epoch each time, and fences out every earlier owner", async () => {
    const db = await dbs.open("run-takeover");
    await insertSession(db, { id: "s1", tokenHash: "h-s1", browserHash: null, now: "t" });
    const first = await acquireLease(db, { sessionId: "s1", runId: "r1", owner: "a", expiresAt: 1000 });
    const takers = ["b", "c", "a"].map((owner) => takeOverRunLease(db, first, { owner, expiresAt: 5000 }));
    const won = (await Promise.all(takers)).filter((lease) => lease !== null);
    expect(won).toHaveLength(1);
    const second = won[0]!;
    expect(second.epoch).toBeGreaterThan(first.epoch);
    expect(second.runId).toBe("r1");
    // The old owner, woken: its renewal no longer finds the run, and its stale view takes nothing.
    if (second.owner !== "a") expect(await renewLeases(db, "a", 9000)).toEqual([]);
    expect(await takeOverRunLease(db, first, { owner: "a", expiresAt: 9000 })).toBeNull();
    // The new owner dies too: the run is taken once more, under a higher epoch still.
    const third = await takeOverRunLease(db, second, { owner: "d", expiresAt: 9000 });
    expect(third?.epoch).toBeGreaterThan(second.epoch);
    expect(await takeOverRunLease(db, second, { owner: "e", expiresAt: 9000 })).toBeNull();
    expect(await leaseOfSession(db, "s1")).toMatchObject({ owner: "d", runId: "r1", epoch: third!.epoch });
  });
});
