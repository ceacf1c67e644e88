import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "@/tests/helpers/temp-dir";
import { testDatabases } from "@/tests/helpers/test-database";
import { migrate, migrationsFor, openDatabase, pingDatabase } from "./database";
import { appendEventRow, countEvents, eventsAfter, lastSeq } from "./events";
import { MIGRATIONS } from "./migrations";
import { deleteSession, getSession, insertSession, mergeSessionSettings } from "./sessions";
import { latestRun, runsInState, upsertRun } from "./runs";
import { appendCell, cellsOfSession } from "./cells";
import { blobInUse, filesOfSession, getFile, insertFile } from "./files";

const dbs = testDatabases();
const scratch = tempDir();
afterAll(() => {
  dbs.cleanup();
  scratch.cleanup();
});

describe("database (engine under test: ARGUS_TEST_DB)", () => {
  it("applies migrations once and survives reopening", async () => {
    const db = await dbs.open("a");
    expect(await pingDatabase(db)).toBe(true);
    expect(await migrate(db)).toEqual([]);
    await insertSession(db, { id: "s1", tokenHash: "h", browserHash: null, now: "2026-01-01T00:00:00Z" });
    await db.close();
    const again = await dbs.open("a");
    expect((await again.one<{ n: number }>("SELECT COUNT(*) AS n FROM schema_migrations"))?.n).toBe(migrationsFor(again).length);
    expect((await getSession(again, "s1"))?.tokenHash).toBe("h");
    await again.close();
  });

  it("numbers events per session without gaps or repeats", async () => {
    const db = await dbs.open("b");
    for (const id of ["a", "b"]) await insertSession(db, { id, tokenHash: "h", browserHash: null, now: "t" });
    const seqs: Record<string, number[]> = { a: [], b: [] };
    for (let i = 0; i < 50; i++) {
      const sid = i % 3 === 0 ? "b" : "a";
      const row = await appendEventRow(db, sid, (seq) => ({ runId: null, body: JSON.stringify({ seq }) }), "t");
      seqs[sid]!.push(row.seq);
    }
    for (const sid of ["a", "b"]) {
      const list = seqs[sid]!;
      expect(list).toEqual(list.map((_, i) => i + 1));
      expect((await eventsAfter(db, sid, 0)).map((r) => r.seq)).toEqual(list);
      expect((await eventsAfter(db, sid, 5)).map((r) => r.seq)).toEqual(list.slice(5));
      expect(await lastSeq(db, sid)).toBe(list.length);
    }
    await expect(appendEventRow(db, "missing", () => ({ runId: null, body: "{}" }), "t")).rejects.toThrow(/does not exist/);
    await db.close();
  });

  it("rolls an append back whole when it fails half-way: no event, no number taken", async () => {
    const db = await dbs.open("rollback");
    await insertSession(db, { id: "x", tokenHash: "h", browserHash: null, now: "t" });
    await appendEventRow(db, "x", () => ({ runId: null, body: "{}" }), "t");
    await expect(
      appendEventRow(db, "x", () => {
        throw new Error("body could not be built");
      }, "t"),
    ).rejects.toThrow(/could not be built/);
    expect(await lastSeq(db, "x")).toBe(1);
    expect((await appendEventRow(db, "x", () => ({ runId: null, body: "{}" }), "t")).seq).toBe(2);
    await db.close();
  });

  it("deletes a session's events with it", async () => {
    const db = await dbs.open("c");
    await insertSession(db, { id: "x", tokenHash: "h", browserHash: null, now: "t" });
    await appendEventRow(db, "x", () => ({ runId: null, body: "{}" }), "t");
    expect(await countEvents(db, "x")).toBe(1);
    expect(await deleteSession(db, "x")).toBe(true);
    expect(await countEvents(db, "x")).toBe(0);
    expect(await deleteSession(db, "x")).toBe(false);
    await db.close();
  });

  it("keeps runs, files, cells and settings the same way on either engine", async () => {
    const db = await dbs.open("d");
    await insertSession(db, { id: "s", tokenHash: "h", browserHash: null, now: "t" });
    // Two runs in the same millisecond: the later one inserted is the latest.
    await upsertRun(db, { id: "r1", sessionId: "s", state: { n: 1 }, agentState: "running", now: "2026-01-01T00:00:00Z" });
    await upsertRun(db, { id: "r2", sessionId: "s", state: { n: 2 }, agentState: "running", now: "2026-01-01T00:00:00Z" });
    await upsertRun(db, { id: "r1", sessionId: "s", state: { n: 3 }, agentState: "finished", now: "2026-01-01T00:00:01Z" });
    expect((await latestRun(db, "s"))?.id).toBe("r2");
    expect((await runsInState(db, ["running"])).map((r) => r.id)).toEqual(["r2"]);
    expect(await runsInState(db, [])).toEqual([]);

    const file = {
      id: "f1", sessionId: "s", origin: "upload" as const, name: "a.png", kind: "image" as const, mime: "image/png",
      size: 5_000_000_000, sha256: "a".repeat(64), width: 10, height: 20, durationSec: 1.5,
      thumbSha256: "b".repeat(64), thumbMime: "image/webp", createdAt: "t",
    };
    await insertFile(db, file);
    expect(await getFile(db, "f1")).toEqual(file);
    expect(await filesOfSession(db, "s")).toEqual([file]);
    expect(await blobInUse(db, "b".repeat(64))).toBe(true);
    expect(await blobInUse(db, "c".repeat(64))).toBe(false);

    const execution = { results: [], stdout: "hi\n", stderr: "", error: null };
    expect(await appendCell(db, "s", { kernelId: "k", code: "print('hi')", execution, executionCount: 1 })).toBe(1);
    expect(await appendCell(db, "s", { kernelId: "k", code: "2", execution, executionCount: null, outputFiles: [{ result: 0, mime: "image/png", file: "x.txt" }] })).toBe(2);
    const cells = await cellsOfSession(db, "s");
    expect(cells.map((c) => [c.idx, c.kernelId, c.executionCount])).toEqual([[1, "k", 1], [2, "k", null]]);
    expect(cells[1]!.outputFiles).toEqual([{ result: 0, mime: "image/png", file: "x.txt" }]);

    // Two merges at once are serialized (no update lost); which one goes first is the database's
    // choice (on Postgres, whichever takes the row lock), so the second to run returns both keys.
    const merged = await Promise.all([mergeSessionSettings(db, "s", { a: 1 }), mergeSessionSettings(db, "s", { b: 2 })]);
    expect(merged).toContainEqual({ a: 1, b: 2 });
    expect((await getSession(db, "s"))?.settings).toEqual({ a: 1, b: 2 });
    await db.close();
  });
});

describe("SQLite files from before the async engine", () => {
  it("open with their data and migrations as they were", async () => {
    // A data dir written by the previous (synchronous) code: the same schema,
    // recorded in schema_migrations, with a session and an event in it.
    const file = path.join(scratch.dir, "old.db");
    const old = new Database(file);
    old.exec("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)");
    for (const m of MIGRATIONS) {
      old.exec(m.sql);
      old.prepare("INSERT INTO schema_migrations VALUES (?, ?, ?)").run(m.version, m.name, "2026-01-01T00:00:00Z");
    }
    old.prepare("INSERT INTO sessions (id, token_hash, created_at, updated_at, last_seq) VALUES ('s', 'h', 't', 't', 1)").run();
    old.prepare("INSERT INTO events (session_id, seq, ts, body) VALUES ('s', 1, 't', '{}')").run();
    old.close();

    const db = await openDatabase(file);
    expect(db.kind).toBe("sqlite");
    expect(await migrate(db)).toEqual([]);
    expect((await getSession(db, "s"))?.lastSeq).toBe(1);
    expect((await appendEventRow(db, "s", () => ({ runId: null, body: "{}" }), "t")).seq).toBe(2);
    await db.close();
  });
});
