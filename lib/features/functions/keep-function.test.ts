import { afterAll, describe, expect, it } from "vitest";
import { insertSession } from "@/lib/engines/db/sessions";
import { functionVersions } from "@/lib/engines/db/functions";
import { testDatabases } from "@/tests/helpers/test-database";
import { keepCoderResult } from "./keep-function";

const dbs = testDatabases();
afterAll(() => dbs.cleanup());

const outputs = (code: string, test = "print(count_coins('coins.png'))") => ({ code, test, success: true, testResult: "24\n", summary: "ok" });

describe("keepCoderResult (engine under test: ARGUS_TEST_DB)", () => {
  it("keeps each coder result as the next version of the function its test calls", async () => {
    const db = await dbs.open("keep");
    await insertSession(db, { id: "s", tokenHash: "h", browserHash: null, now: "t" });
    const v1 = await keepCoderResult(db, { sessionId: "s", runId: "r1", outputs: outputs("from argus import *\ndef count_coins(p):\n    return 24\n"), now: "2026-01-01T00:00:00Z" });
    expect(v1).toMatchObject({ name: "count_coins", version: 1, runId: "r1", testOutput: "24\n", success: true });
    const v2 = await keepCoderResult(db, { sessionId: "s", runId: "r2", outputs: outputs("from argus import *\ndef count_coins(p):\n    return 24, []\n"), now: "2026-01-01T00:01:00Z" });
    expect(v2?.version).toBe(2);
    expect((await functionVersions(db, "s", "count_coins")).map((v) => v.runId)).toEqual(["r1", "r2"]);
    await db.close();
  });

  it("keeps nothing when the coder produced no function", async () => {
    const db = await dbs.open("keep-none");
    await insertSession(db, { id: "s", tokenHash: "h", browserHash: null, now: "t" });
    expect(await keepCoderResult(db, { sessionId: "s", runId: "r", outputs: outputs("from argus import *\n", ""), now: "t" })).toBeNull();
    expect(await keepCoderResult(db, { sessionId: "s", runId: "r", outputs: { error: "the planner returned no plan" }, now: "t" })).toBeNull();
    await db.close();
  });
});
