import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { diskFullError, DiskSpace, isDiskFull, lowDiskMessage } from "./disk-space";

const dir = mkdtempSync(path.join(os.tmpdir(), "argus-disk-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("isDiskFull", () => {
  it("recognises SQLite's and the file system's out-of-space errors, also as a cause", () => {
    expect(isDiskFull(Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" }))).toBe(true);
    expect(isDiskFull(Object.assign(new Error("no space left on device"), { code: "ENOSPC" }))).toBe(true);
    expect(isDiskFull(new Error("wrapped", { cause: Object.assign(new Error("quota"), { code: "EDQUOT" }) }))).toBe(true);
  });

  it("does not mistake other failures for a full disk", () => {
    expect(isDiskFull(Object.assign(new Error("locked"), { code: "SQLITE_BUSY" }))).toBe(false);
    expect(isDiskFull(Object.assign(new Error("gone"), { code: "ENOENT" }))).toBe(false);
    expect(isDiskFull("ENOSPC")).toBe(false);
    expect(isDiskFull(null)).toBe(false);
  });

  it("matches the error better-sqlite3 really throws when a database is out of room", () => {
    // max_page_count makes SQLite answer exactly as it does on a full disk.
    const db = new Database(path.join(dir, "small.db"));
    db.exec("CREATE TABLE t (x TEXT)");
    db.pragma("max_page_count = 3");
    let thrown: unknown = null;
    try {
      for (let i = 0; i < 100; i++) db.prepare("INSERT INTO t VALUES (?)").run("x".repeat(2000));
    } catch (error) {
      thrown = error;
    }
    db.close();
    expect(isDiskFull(thrown)).toBe(true);
  });
});

describe("DiskSpace", () => {
  it("reports the real free space of a directory", () => {
    const free = new DiskSpace(dir, 0).freeBytes();
    expect(free).not.toBeNull();
    expect(free!).toBeGreaterThan(0);
  });

  it("refuses new work with a readable 507 only below the minimum", () => {
    expect(() => new DiskSpace(dir, 0).assertRoom("session")).not.toThrow();
    const huge = new DiskSpace(dir, Number.MAX_SAFE_INTEGER);
    expect(huge.low()).toBe(true);
    try {
      huge.assertRoom("upload");
      expect.unreachable();
    } catch (error) {
      expect((error as { code: string }).code).toBe("insufficient_storage:upload");
      expect((error as { status: number }).status).toBe(507);
      expect((error as Error).message).toMatch(/almost out of disk space/);
    }
  });

  it("says nothing about a directory it cannot measure instead of refusing", () => {
    const missing = new DiskSpace(path.join(dir, "does-not-exist"), Number.MAX_SAFE_INTEGER);
    expect(missing.freeBytes()).toBeNull();
    expect(() => missing.assertRoom("session")).not.toThrow();
  });
});

describe("messages", () => {
  it("say how much is free and what is needed, in megabytes", () => {
    expect(lowDiskMessage(5 * 1024 * 1024, 200 * 1024 * 1024)).toMatch(/5 MB free, 200 MB needed/);
    expect(diskFullError("message").status).toBe(507);
    expect(diskFullError("message").message).toMatch(/disk is full/);
  });
});
