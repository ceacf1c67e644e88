import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "@/tests/helpers/temp-dir";
import { migrate, openDatabase, pingDatabase } from "./database";
import { appendEventRow, countEvents, eventsAfter } from "./events";
import { MIGRATIONS } from "./migrations";
import { deleteSession, getSession, insertSession } from "./sessions";

const scratch = tempDir();
afterAll(scratch.cleanup);

describe("database", () => {
  it("applies migrations once and survives reopening", () => {
    const file = path.join(scratch.dir, "a.db");
    const db = openDatabase(file);
    expect(pingDatabase(db)).toBe(true);
    expect(migrate(db)).toEqual([]);
    insertSession(db, { id: "s1", tokenHash: "h", browserHash: null, now: "2026-01-01T00:00:00Z" });
    db.close();
    const again = openDatabase(file);
    expect(again.prepare("SELECT COUNT(*) FROM schema_migrations").pluck().get()).toBe(MIGRATIONS.length);
    expect(getSession(again, "s1")?.tokenHash).toBe("h");
    again.close();
  });

  it("numbers events per session without gaps or repeats", () => {
    const db = openDatabase(path.join(scratch.dir, "b.db"));
    for (const id of ["a", "b"]) insertSession(db, { id, tokenHash: "h", browserHash: null, now: "t" });
    const seqs: Record<string, number[]> = { a: [], b: [] };
    for (let i = 0; i < 50; i++) {
      const sid = i % 3 === 0 ? "b" : "a";
      const row = appendEventRow(db, sid, (seq) => ({ runId: null, body: JSON.stringify({ seq }) }), "t");
      seqs[sid]!.push(row.seq);
    }
    for (const sid of ["a", "b"]) {
      const list = seqs[sid]!;
      expect(list).toEqual(list.map((_, i) => i + 1));
      expect(eventsAfter(db, sid, 0).map((r) => r.seq)).toEqual(list);
      expect(eventsAfter(db, sid, 5).map((r) => r.seq)).toEqual(list.slice(5));
    }
    expect(() => appendEventRow(db, "missing", () => ({ runId: null, body: "{}" }), "t")).toThrow(/does not exist/);
    db.close();
  });

  it("deletes a session's events with it", () => {
    const db = openDatabase(path.join(scratch.dir, "c.db"));
    insertSession(db, { id: "x", tokenHash: "h", browserHash: null, now: "t" });
    appendEventRow(db, "x", () => ({ runId: null, body: "{}" }), "t");
    expect(countEvents(db, "x")).toBe(1);
    expect(deleteSession(db, "x")).toBe(true);
    expect(countEvents(db, "x")).toBe(0);
    db.close();
  });
});
