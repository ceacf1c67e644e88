import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/engines/db/database";
import { addFunctionVersion } from "@/lib/engines/db/functions";
import { api, startArgus, type RunningServer } from "@/tests/helpers/argus-server";
import { tempDir } from "@/tests/helpers/temp-dir";
import { zipOfZeros } from "@/tests/helpers/zip-bomb";

/**
 * The inflated-bytes budget of a batch's zips holds for the request, not for
 * each zip: otherwise a 250 MB request of 25 zips, each just under the budget,
 * makes the server inflate and hold 25 GB. Small entries (not judged by the
 * compression ratio) keep the test cheap: two zips of 600 × 1 MB of zeros.
 * Jupyter is off: the intake refuses the request before any batch would run.
 */
const scratch = tempDir();
let server: RunningServer;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startArgus({ dataDir: scratch.dir, env: { ARGUS_JUPYTER: "off", ARGUS_BATCH_MAX_FILES: "5000" } });
  call = api(server.url);
});
afterAll(async () => {
  await server?.kill();
  scratch.cleanup();
});

describe("batch zips", () => {
  it("refuses zips that together inflate past the budget, though each stays under it", async () => {
    // Made first: a request sent after seconds of idling can meet the server closing its keep-alive socket.
    const zip = zipOfZeros(600); // 600 MB inflated each: under the 1 GB budget alone
    const s = (await call("POST", "/api/sessions")).json as { id: string; token: string };
    const db = await openDatabase(server.database);
    try {
      await addFunctionVersion(db, { sessionId: s.id, name: "f", code: "def f(p):\n    return 1\n", test: "", runId: null, testOutput: "", success: true, now: new Date().toISOString() });
    } finally {
      await db.close();
    }
    const form = new FormData();
    form.set("functionName", "f");
    form.append("zip", new Blob([zip as BlobPart], { type: "application/zip" }), "one.zip");
    form.append("zip", new Blob([zip as BlobPart], { type: "application/zip" }), "two.zip");
    const res = await call("POST", `/api/sessions/${s.id}/batches`, { token: s.token, raw: form });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: "bad_request:upload", field: "zip" });
    expect(res.json.error.message).toMatch(/inflate.* more than 1024 MB/);
  });
});
