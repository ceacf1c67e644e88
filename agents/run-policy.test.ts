import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/foundation/config";
import { BlobStore } from "@/lib/engines/db/blobs";
import { functionVersions } from "@/lib/engines/db/functions";
import { insertSession } from "@/lib/engines/db/sessions";
import { testDatabases } from "@/tests/helpers/test-database";
import { agentPolicy } from "./run-policy";

const dbs = testDatabases();
afterAll(() => dbs.cleanup());

const outputs = { code: "from argus import *\ndef count_coins(p):\n    return 24\n", test: "print(count_coins('coins.png'))", success: true, testResult: "24\n", summary: "ok" };

describe("agentPolicy (engine under test: ARGUS_TEST_DB)", () => {
  it("keeps the coder's function when the coder finishes, and nothing for another agent", async () => {
    const db = await dbs.open("policy");
    await insertSession(db, { id: "s", tokenHash: "h", browserHash: null, now: "t" });
    const lines: string[] = [];
    const policy = agentPolicy({
      db,
      blobs: new BlobStore("/nonexistent-blobs"),
      config: loadConfig({}, "/srv/argus"),
      catalogue: "",
      batches: null,
      browserViewport: null,
      log: (line) => lines.push(line),
    });
    await policy.onAgentFinished?.({ sessionId: "s", runId: "r0", agent: "planner", outputs });
    expect(await functionVersions(db, "s", "count_coins")).toEqual([]);
    await policy.onAgentFinished?.({ sessionId: "s", runId: "r1", agent: "coder", outputs });
    expect((await functionVersions(db, "s", "count_coins")).map((v) => v.runId)).toEqual(["r1"]);
    expect(lines).toEqual([]);
    await db.close();
  });

  it("never fails the run when keeping the function fails: it says so in the log", async () => {
    const db = await dbs.open("policy-closed");
    const lines: string[] = [];
    const policy = agentPolicy({ db, blobs: new BlobStore("/nonexistent-blobs"), config: loadConfig({}, "/srv/argus"), catalogue: "", batches: null, browserViewport: null, log: (line) => lines.push(line) });
    await db.close();
    await expect(policy.onAgentFinished?.({ sessionId: "s", runId: "r1", agent: "coder", outputs })).resolves.toBeUndefined();
    expect(lines.join("\n")).toMatch(/could not keep the coder's function/);
  });
});
