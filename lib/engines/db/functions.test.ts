import { afterAll, describe, expect, it } from "vitest";
import { testDatabases } from "@/tests/helpers/test-database";
import { deleteSession, insertSession } from "./sessions";
import { addFunctionVersion, functionsOfSession, functionVersion, functionVersions } from "./functions";

const dbs = testDatabases();
afterAll(() => dbs.cleanup());

const version = (sessionId: string, name: string, code: string, now: string) =>
  ({ sessionId, name, code, test: `print(${name}('a.png'))`, runId: "r1", testOutput: "24", success: true, now });

describe("session functions (engine under test: ARGUS_TEST_DB)", () => {
  it("numbers versions per (session, name) and lists the latest of each", async () => {
    const db = await dbs.open("fn");
    for (const id of ["a", "b"]) await insertSession(db, { id, tokenHash: "h", browserHash: null, now: "t" });
    expect((await addFunctionVersion(db, version("a", "count_coins", "v1", "2026-01-01T00:00:01Z"))).version).toBe(1);
    expect((await addFunctionVersion(db, version("a", "count_coins", "v2", "2026-01-01T00:00:02Z"))).version).toBe(2);
    expect((await addFunctionVersion(db, version("a", "find_cats", "c1", "2026-01-01T00:00:03Z"))).version).toBe(1);
    expect((await addFunctionVersion(db, version("b", "count_coins", "other", "2026-01-01T00:00:04Z"))).version).toBe(1);

    expect(await functionsOfSession(db, "a")).toEqual([
      { name: "find_cats", latestVersion: 1, versions: 1, updatedAt: "2026-01-01T00:00:03Z", success: true },
      { name: "count_coins", latestVersion: 2, versions: 2, updatedAt: "2026-01-01T00:00:02Z", success: true },
    ]);
    expect((await functionVersions(db, "a", "count_coins")).map((v) => [v.version, v.code])).toEqual([[1, "v1"], [2, "v2"]]);
    expect((await functionVersion(db, "a", "count_coins", null))?.code).toBe("v2");
    expect((await functionVersion(db, "a", "count_coins", 1))).toMatchObject({ code: "v1", runId: "r1", testOutput: "24", success: true });
    expect(await functionVersion(db, "a", "count_coins", 3)).toBeNull();
    // Another session's function of the same name is its own.
    expect((await functionVersion(db, "b", "count_coins", null))?.code).toBe("other");
    expect(await functionVersion(db, "b", "find_cats", null)).toBeNull();

    await deleteSession(db, "a");
    expect(await functionsOfSession(db, "a")).toEqual([]);
    await db.close();
  });
});
