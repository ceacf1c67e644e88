import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/engines/db/database";
import { addFunctionVersion } from "@/lib/engines/db/functions";
import { api, startArgus, type RunningServer } from "@/tests/helpers/argus-server";
import { COUNT_COINS_CODE, coinImage } from "@/tests/helpers/coin-images";
import { eventually } from "@/tests/helpers/kernel-core";
import { tempDir } from "@/tests/helpers/temp-dir";

/**
 * The batch routes against the real server: start a batch on session uploads
 * (JSON) and on a zip (multipart), read it paged, export it, and the refusals:
 * zip attacks, an unknown function, another session's batch, no credentials.
 */
const scratch = tempDir();
let server: RunningServer;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startArgus({ dataDir: scratch.dir, env: { ARGUS_JUPYTER: "auto", ARGUS_KERNEL_POOL: "1" } });
  call = api(server.url);
});
afterAll(async () => {
  await server?.kill();
  scratch.cleanup();
});

type S = { id: string; token: string };

async function session(): Promise<S> {
  return (await call("POST", "/api/sessions")).json as S;
}

/** The session's function, kept as a coder run would keep it (through Argus's own repository). */
async function keepFunction(s: S, code = COUNT_COINS_CODE, name = "count_coins"): Promise<void> {
  const db = await openDatabase(server.database);
  try {
    await addFunctionVersion(db, { sessionId: s.id, name, code, test: `${name}('x.png')`, runId: null, testOutput: "", success: true, now: new Date().toISOString() });
  } finally {
    await db.close();
  }
}

async function upload(s: S, bytes: Uint8Array, name: string): Promise<string> {
  const form = new FormData();
  form.set("file", new Blob([bytes as BlobPart], { type: "image/png" }), name);
  const res = await call("POST", `/api/sessions/${s.id}/uploads`, { token: s.token, raw: form });
  expect(res.status).toBe(201);
  return res.json.id as string;
}

async function finished(s: S, batchId: string) {
  let page: Record<string, any> = {};
  await eventually(async () => {
    page = (await call("GET", `/api/sessions/${s.id}/batches/${batchId}`, { token: s.token })).json;
    return page.batch?.status !== "running";
  }, 120_000);
  return page;
}

function zipOf(script: string): Uint8Array {
  const out = spawnSync("/usr/bin/python3", ["-c", `import io, sys, zipfile\nbuf = io.BytesIO()\nz = zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED)\n${script}\nz.close()\nsys.stdout.buffer.write(buf.getvalue())`], { maxBuffer: 64 * 1024 * 1024 });
  return new Uint8Array(out.stdout);
}

async function postZip(s: S, zip: Uint8Array, fn = "count_coins") {
  const form = new FormData();
  form.set("functionName", fn);
  form.set("zip", new Blob([zip as BlobPart], { type: "application/zip" }), "shoot.zip");
  return call("POST", `/api/sessions/${s.id}/batches`, { token: s.token, raw: form });
}

describe("batch routes", () => {
  it("runs the latest function on session uploads, pages the items, exports CSV and JSON", async () => {
    const s = await session();
    await keepFunction(s);
    const counts = [3, 6, 1];
    const ids = [];
    for (const n of counts) ids.push(await upload(s, new Uint8Array(await coinImage(n)), `coins-${n}.png`));
    const res = await call("POST", `/api/sessions/${s.id}/batches`, { token: s.token, body: { functionName: "count_coins", uploadIds: ids } });
    expect(res.status).toBe(201);
    expect(res.json.batch).toMatchObject({ functionName: "count_coins", functionVersion: 1, total: 3 });
    const bid = res.json.batch.id as string;

    const end = await finished(s, bid);
    expect(end.batch).toMatchObject({ status: "done", counts: { done: 3, failed: 0 } });
    expect(end.items.map((i: any) => i.result.count)).toEqual(counts);
    const second = await call("GET", `/api/sessions/${s.id}/batches/${bid}?offset=1&limit=1`, { token: s.token });
    expect(second.json.items).toHaveLength(1);
    expect(second.json.items[0]).toMatchObject({ idx: 1, fileName: "coins-6.png" });

    const csv = await call("GET", `/api/sessions/${s.id}/batches/${bid}/export.csv`, { token: s.token });
    expect(csv.headers.get("content-type")).toMatch(/text\/csv/);
    expect(csv.headers.get("content-disposition")).toMatch(/attachment; filename="count_coins-batch-/);
    const lines = csv.text.trim().split("\r\n");
    expect(lines[0]).toBe("file,status,result.count,result.areas,seconds,error,overlay");
    expect(lines.slice(1).map((l) => l.split(",").slice(0, 3).join(","))).toEqual(["coins-3.png,done,3", "coins-6.png,done,6", "coins-1.png,done,1"]);
    const json = await call("GET", `/api/sessions/${s.id}/batches/${bid}/export.json`, { token: s.token });
    expect(JSON.parse(json.text).items[2]).toMatchObject({ fileName: "coins-1.png", result: { count: 1 }, overlayUrl: expect.stringMatching(/^\/api\/files\//) });

    const list = await call("GET", `/api/sessions/${s.id}/batches`, { token: s.token });
    expect(list.json.batches.map((b: any) => b.batch.id)).toEqual([bid]);
  });

  it("takes a zip of images; a corrupt file fails its own row", async () => {
    const s = await session();
    await keepFunction(s);
    const [a, b] = [await coinImage(2), await coinImage(4)];
    const zip = zipOf(`z.writestr("shoot/a.png", bytes.fromhex("${a.toString("hex")}"))\nz.writestr("shoot/broken.png", b"\\x89PNG\\r\\n\\x1a\\n rubbish")\nz.writestr("shoot/b.png", bytes.fromhex("${b.toString("hex")}"))`);
    const res = await postZip(s, zip);
    expect(res.status).toBe(201);
    const end = await finished(s, res.json.batch.id);
    expect(end.items.map((i: any) => [i.fileName, i.status])).toEqual([["a.png", "done"], ["broken.png", "failed"], ["b.png", "done"]]);
    expect(end.items[1].error).toMatch(/\w/);
    expect(end.items[2].result.count).toBe(4);
  });

  it("refuses zip attacks with a clear message", async () => {
    const s = await session();
    await keepFunction(s);
    const cases: Array<[string, RegExp]> = [
      [`z.writestr("../x.png", b"x")`, /climbs out of the archive/],
      [`i = zipfile.ZipInfo("l.png")\ni.external_attr = (0o120777 << 16)\ni.create_system = 3\nz.writestr(i, "/etc/passwd")`, /symbolic link/],
      [`z.writestr("inner.zip", b"x")`, /archive inside the archive/],
      [`z.writestr("bomb.png", b"\\0" * (200 * 1024 * 1024))`, /zip bomb/],
    ];
    for (const [script, message] of cases) {
      const res = await postZip(s, zipOf(script));
      expect(res.status, script).toBe(400);
      expect(res.json.error).toMatchObject({ code: "bad_request:upload", field: "zip" });
      expect(res.json.error.message).toMatch(message);
    }
    const list = await call("GET", `/api/sessions/${s.id}/batches`, { token: s.token });
    expect(list.json.batches).toEqual([]);
  });

  it("refuses an unknown function, another session's batch, and no credentials", async () => {
    const s = await session();
    const other = await session();
    await keepFunction(s);
    const id = await upload(s, new Uint8Array(await coinImage(1)), "one.png");
    const unknown = await call("POST", `/api/sessions/${s.id}/batches`, { token: s.token, body: { functionName: "nope", uploadIds: [id] } });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.message).toMatch(/no a function named 'nope'|no .*'nope'/);
    // Another session's upload is not this session's to pick.
    await keepFunction(other);
    const foreign = await call("POST", `/api/sessions/${other.id}/batches`, { token: other.token, body: { functionName: "count_coins", uploadIds: [id] } });
    expect(foreign.status).toBe(404);
    expect(foreign.json.error.field).toBe("uploadIds.0");

    const ok = await call("POST", `/api/sessions/${s.id}/batches`, { token: s.token, body: { functionName: "count_coins", uploadIds: [id] } });
    const bid = ok.json.batch.id as string;
    expect((await call("GET", `/api/sessions/${other.id}/batches/${bid}`, { token: other.token })).status).toBe(404);
    expect((await call("POST", `/api/sessions/${other.id}/batches/${bid}/cancel`, { token: other.token })).status).toBe(404);
    expect((await call("GET", `/api/sessions/${s.id}/batches/${bid}`, { token: null })).status).toBe(401);
    const bad = await call("POST", `/api/sessions/${s.id}/batches`, { token: s.token, body: { functionName: "count_coins", uploadIds: [] } });
    expect(bad.status).toBe(400);
    await finished(s, bid);
  });
});
