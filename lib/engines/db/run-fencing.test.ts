import { afterAll, describe, expect, it } from "vitest";
import { testDatabases } from "@/tests/helpers/test-database";
import type { Db } from "./database";
import { appendEventRow, eventsAfter, lastSeq } from "./events";
import { acquireLease, assertRunFence, claimExpiredLease, isRunLeaseLost, leaseOfSession, RunLeaseLost, type RunFence } from "./run-leases";
import { latestRun, upsertRun } from "./runs";
import { insertSession } from "./sessions";

/**
 * Fencing: a write made for a run under its lease is refused by the database, in the write's own
 * transaction, once another instance took the run over. On the engine under test (ARGUS_TEST_DB).
 */
const dbs = testDatabases();
afterAll(() => dbs.cleanup());

async function withSession(name: string): Promise<Db> {
  const db = await dbs.open(name);
  await insertSession(db, { id: "s1", tokenHash: "h-s1", browserHash: null, now: "t" });
  return db;
}

const append = (db: Db, text: string, fence: RunFence | null) => appendEventRow(db, "s1", () => ({ runId: "r1", body: text }), new Date().toISOString(), fence);
const state = (db: Db, agentState: string, fence: RunFence | null) => upsertRun(db, { id: "r1", sessionId: "s1", state: { agentState }, agentState, now: "t" }, fence);

/** Resolves once a statement of this database waits for a row lock (Postgres); at once on SQLite. */
async function waitingOnALock(db: Db): Promise<void> {
  if (db.kind !== "postgres") return;
  const other = db;
  for (;;) {
    const row = await other.one<{ n: string | number }>("SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
    if (Number(row?.n ?? 0) > 0) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe("run fencing (engine under test: ARGUS_TEST_DB)", () => {
  it("raises the epoch each time the owner takes the session's row again", async () => {
    const db = await withSession("epoch");
    expect((await acquireLease(db, { sessionId: "s1", runId: "r1", owner: "a", expiresAt: 100 })).epoch).toBe(1);
    expect((await acquireLease(db, { sessionId: "s1", runId: "r2", owner: "a", expiresAt: 200 })).epoch).toBe(2);
    // Another instance does not take it: the row, and its epoch, stay the owner's.
    expect(await acquireLease(db, { sessionId: "s1", runId: "r3", owner: "b", expiresAt: 300 })).toMatchObject({ owner: "a", runId: "r2", epoch: 2 });
  });

  it("writes events and the run's state under the current lease; refuses both, writing nothing, once another instance took the run over", async () => {
    const db = await withSession("refused");
    const lease = await acquireLease(db, { sessionId: "s1", runId: "r1", owner: "a", expiresAt: 100 });
    const fence: RunFence = { sessionId: "s1", runId: "r1", owner: "a", epoch: lease.epoch };
    await append(db, "first", fence);
    await state(db, "running", fence);

    // B sees the lease expired, takes it over and writes the run's ending (unfenced: it holds no lease of that run).
    expect(await claimExpiredLease(db, lease)).toBe(true);
    await append(db, "note", null);
    await state(db, "interrupted", null);

    const refused = await append(db, "stale", fence).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RunLeaseLost);
    expect(isRunLeaseLost(refused) && refused.message).toMatch(/Another Argus instance took this run over/);
    await expect(state(db, "running", fence)).rejects.toBeInstanceOf(RunLeaseLost);
    expect((await eventsAfter(db, "s1", 0)).map((e) => e.body)).toEqual(["first", "note"]);
    expect(await lastSeq(db, "s1")).toBe(2); // the refused append took no number
    expect((await latestRun(db, "s1"))?.agentState).toBe("interrupted");
  });

  it("refuses a fence of another epoch, run or owner", async () => {
    const db = await withSession("mismatch");
    const lease = await acquireLease(db, { sessionId: "s1", runId: "r1", owner: "a", expiresAt: 100 });
    const fence: RunFence = { sessionId: "s1", runId: "r1", owner: "a", epoch: lease.epoch };
    for (const stale of [{ ...fence, epoch: fence.epoch + 1 }, { ...fence, runId: "r0" }, { ...fence, owner: "b" }]) {
      await expect(append(db, "stale", stale)).rejects.toBeInstanceOf(RunLeaseLost);
    }
    await append(db, "ok", fence);
    expect((await eventsAfter(db, "s1", 0)).map((e) => e.body)).toEqual(["ok"]);
  });

  it("a fenced write under way when the run is taken over lands before the new owner's note, and the next one is refused", async () => {
    const db = await withSession("race");
    const lease = await acquireLease(db, { sessionId: "s1", runId: "r1", owner: "a", expiresAt: 100 });
    const fence: RunFence = { sessionId: "s1", runId: "r1", owner: "a", epoch: lease.epoch };
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let checked!: () => void;
    const fenceChecked = new Promise<void>((resolve) => (checked = resolve));
    // The old owner's write, in appendEventRow's order: the session's number, the fence, then it is
    // slow to finish (a stall mid-transaction).
    const stale = db.transaction(async (tx) => {
      await tx.run("UPDATE sessions SET last_seq = last_seq + 1 WHERE id = ?", ["s1"]);
      await assertRunFence(tx, fence);
      checked();
      await gate;
      await tx.run("INSERT INTO events (session_id, seq, run_id, ts, body) VALUES (?, (SELECT last_seq FROM sessions WHERE id = ?), ?, ?, ?)", ["s1", "s1", "r1", "t", "stale"]);
    });
    await fenceChecked;
    // The new owner's take-over, then its note.
    const takeover = (async () => {
      expect(await claimExpiredLease(db, lease)).toBe(true);
      await append(db, "note", null);
    })();
    // Let the take-over go as far as it can while the write is under way: on Postgres until it
    // waits for the lease row's lock (seen in pg_stat_activity); SQLite queues it behind the open transaction.
    await Promise.race([takeover, waitingOnALock(db)]);
    release();
    await Promise.all([stale, takeover]);
    expect((await eventsAfter(db, "s1", 0)).map((e) => e.body)).toEqual(["stale", "note"]);
    expect(await leaseOfSession(db, "s1")).toBeNull();
    await expect(append(db, "later", fence)).rejects.toBeInstanceOf(RunLeaseLost);
  });
});
