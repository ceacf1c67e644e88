import { afterAll, describe, expect, it } from "vitest";
import { testDatabases } from "@/tests/helpers/test-database";
import { insertBatch } from "./batches";
import type { Db } from "./database";
import {
  acquireLease,
  BATCH_LEASE_TABLE,
  expiredLeases,
  isLeaseExpired,
  leaseRow,
  releaseLease,
  releaseOwnerLeases,
  renewLeases,
  RUN_LEASE_TABLE,
  takeOverLease,
} from "./leases";
import { insertSession } from "./sessions";

const dbs = testDatabases();
afterAll(() => dbs.cleanup());

interface RunRow {
  session_id: string;
  run_id: string;
  owner: string;
  expires_at: number;
}
interface BatchLeaseRow {
  id: string;
  owner: string | null;
  lease_expires_at: number | null;
  status: string;
}

async function withSessions(name: string, ...ids: string[]): Promise<Db> {
  const db = await dbs.open(name);
  for (const id of ids) await insertSession(db, { id, tokenHash: `h-${id}`, browserHash: null, now: "t" });
  return db;
}

async function batch(db: Db, id: string, owner: string | null, leaseExpiresAt: number | null): Promise<void> {
  await insertBatch(
    db,
    { id, sessionId: "s1", functionName: "f", functionVersion: 1, code: "def f(p): pass", createdAt: `2026-01-01T00:00:0${id.at(-1)}Z`, owner: owner as string, leaseExpiresAt },
    [{ fileName: "a.png", uploadId: null, blobSha256: null }],
  );
}

describe("leases (engine under test: ARGUS_TEST_DB)", () => {
  it("counts an expiry of exactly now as run out", () => {
    expect(isLeaseExpired({ expiresAt: 100 }, 99)).toBe(false);
    expect(isLeaseExpired({ expiresAt: 100 }, 100)).toBe(true);
  });

  it("acquires a row lease for one owner; the owner may take it again, another sees who holds it", async () => {
    const db = await withSessions("acquire", "s1");
    const first = await acquireLease<RunRow>(db, RUN_LEASE_TABLE, { key: "s1", owner: "a", expiresAt: 100 }, { run_id: "r1" });
    expect(first).toMatchObject({ owner: "a", run_id: "r1", expires_at: 100 });
    expect(await acquireLease<RunRow>(db, RUN_LEASE_TABLE, { key: "s1", owner: "b", expiresAt: 200 }, { run_id: "r2" })).toMatchObject({ owner: "a", run_id: "r1" });
    expect(await acquireLease<RunRow>(db, RUN_LEASE_TABLE, { key: "s1", owner: "a", expiresAt: 300 }, { run_id: "r3" })).toMatchObject({ owner: "a", run_id: "r3", expires_at: 300 });
  });

  it("renews only the owner's live leases, in either kind of table", async () => {
    const db = await withSessions("renew", "s1", "s2");
    await acquireLease(db, RUN_LEASE_TABLE, { key: "s1", owner: "a", expiresAt: 100 }, { run_id: "r1" });
    await acquireLease(db, RUN_LEASE_TABLE, { key: "s2", owner: "b", expiresAt: 100 }, { run_id: "r2" });
    expect((await renewLeases<RunRow>(db, RUN_LEASE_TABLE, "a", 500)).map((r) => [r.session_id, r.expires_at])).toEqual([["s1", 500]]);
    expect((await leaseRow<RunRow>(db, RUN_LEASE_TABLE, "s2"))?.expires_at).toBe(100);

    await batch(db, "b1", "a", 100);
    await batch(db, "b2", null, null);
    await db.run("UPDATE batches SET status = 'done' WHERE id = 'b1'");
    // A batch that ended holds no lease; an unowned one is taken only when asked to adopt it.
    expect(await renewLeases(db, BATCH_LEASE_TABLE, "a", 500)).toEqual([]);
    expect((await renewLeases<BatchLeaseRow>(db, BATCH_LEASE_TABLE, "a", 500, true)).map((r) => [r.id, r.owner, r.lease_expires_at])).toEqual([["b2", "a", 500]]);
  });

  it("lists the expired live leases of other owners, oldest first", async () => {
    const db = await withSessions("expired", "s1", "s2");
    await acquireLease(db, RUN_LEASE_TABLE, { key: "s1", owner: "a", expiresAt: 200 }, { run_id: "r1" });
    await acquireLease(db, RUN_LEASE_TABLE, { key: "s2", owner: "b", expiresAt: 100 }, { run_id: "r2" });
    expect(await expiredLeases(db, RUN_LEASE_TABLE, 99)).toEqual([]);
    expect((await expiredLeases<RunRow>(db, RUN_LEASE_TABLE, 200)).map((r) => r.session_id)).toEqual(["s2", "s1"]);
    expect((await expiredLeases<RunRow>(db, RUN_LEASE_TABLE, 200, "b")).map((r) => r.session_id)).toEqual(["s1"]);

    await batch(db, "b1", "a", 1000);
    await batch(db, "b2", "a", null); // a lone instance's batch: no expiry, never swept
    await batch(db, "b3", "c", 1000);
    expect((await expiredLeases<BatchLeaseRow>(db, BATCH_LEASE_TABLE, 1000, "c")).map((r) => r.id)).toEqual(["b1"]);
  });

  it("lets exactly one instance take over a lease seen expiring, and none one renewed meanwhile", async () => {
    const db = await withSessions("take-over", "s1");
    await batch(db, "b1", "a", 1000);
    const seen = { key: "b1", owner: "a", expiresAt: 1000 };
    // The owner came back in time: the expiry it wrote is the fencing token the taker no longer matches.
    await renewLeases(db, BATCH_LEASE_TABLE, "a", 2000);
    expect(await takeOverLease(db, BATCH_LEASE_TABLE, seen, { owner: "b", expiresAt: 9000 })).toBeNull();
    const again = { ...seen, expiresAt: 2000 };
    const [won, lost] = await Promise.all([
      takeOverLease<BatchLeaseRow>(db, BATCH_LEASE_TABLE, again, { owner: "b", expiresAt: 9000 }),
      takeOverLease<BatchLeaseRow>(db, BATCH_LEASE_TABLE, again, { owner: "c", expiresAt: 9000 }),
    ]);
    expect([won, lost].filter((r) => r !== null)).toHaveLength(1);
    const winner = (won ?? lost)!;
    expect(winner.lease_expires_at).toBe(9000);
    // The old owner's renewal no longer finds it: it stops there.
    expect(await renewLeases(db, BATCH_LEASE_TABLE, "a", 3000)).toEqual([]);
    expect(await renewLeases<BatchLeaseRow>(db, BATCH_LEASE_TABLE, winner.owner!, 10_000)).toHaveLength(1);
  });

  it("ends a row lease by taking it over to nobody, fenced by the run it was for", async () => {
    const db = await withSessions("take-over-row", "s1");
    await acquireLease(db, RUN_LEASE_TABLE, { key: "s1", owner: "a", expiresAt: 100 }, { run_id: "r1" });
    const seen = { key: "s1", owner: "a", expiresAt: 100 };
    expect(await takeOverLease(db, RUN_LEASE_TABLE, seen, null, { run_id: "other" })).toBeNull();
    expect(await takeOverLease<RunRow>(db, RUN_LEASE_TABLE, seen, null, { run_id: "r1" })).toMatchObject({ session_id: "s1", run_id: "r1" });
    expect(await leaseRow(db, RUN_LEASE_TABLE, "s1")).toBeNull();
    // A batch's lease ends with its status, never by deleting the batch.
    await expect(takeOverLease(db, BATCH_LEASE_TABLE, { key: "b1", owner: "a", expiresAt: 1 }, null)).rejects.toThrow(/status/);
  });

  it("releases only the owner's own lease for that very run, or all of an owner's, or all", async () => {
    const db = await withSessions("release", "s1", "s2", "s3");
    await acquireLease(db, RUN_LEASE_TABLE, { key: "s1", owner: "a", expiresAt: 100 }, { run_id: "r1" });
    await acquireLease(db, RUN_LEASE_TABLE, { key: "s2", owner: "a", expiresAt: 100 }, { run_id: "r2" });
    await acquireLease(db, RUN_LEASE_TABLE, { key: "s3", owner: "b", expiresAt: 100 }, { run_id: "r3" });
    expect(await releaseLease(db, RUN_LEASE_TABLE, "s1", "a", { run_id: "other" })).toBe(false);
    expect(await releaseLease(db, RUN_LEASE_TABLE, "s1", "b", { run_id: "r1" })).toBe(false);
    expect(await releaseLease(db, RUN_LEASE_TABLE, "s1", "a", { run_id: "r1" })).toBe(true);
    expect(await releaseOwnerLeases(db, RUN_LEASE_TABLE, "a")).toBe(1);
    expect(await releaseOwnerLeases(db, RUN_LEASE_TABLE, null)).toBe(1);
    expect(await leaseRow(db, RUN_LEASE_TABLE, "s3")).toBeNull();
  });
});
