/**
 * Issue #30, item 9, on the deployed layout (two instances, ONE Postgres, one Redis, ONE shared
 * Jupyter host): a batch cancel sent through the instance that does not run the batch is settled
 * by the owner as soon as the command reaches it, even while the items' kernels are still
 * starting (the field saw 17 s: the owner waited for each lane's kernel to start before it
 * noticed the cancel); and an item in flight when its owner is killed runs again on the new owner
 * (at least once) but keeps one row, one result. Every wait is for a state, never a clock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/engines/db/database";
import { addFunctionVersion } from "@/lib/engines/db/functions";
import type { BatchEvent } from "@/lib/foundation/protocol/batches";
import { scenarioPath, watchSession } from "@/tests/helpers/agent-run";
import { coinImage } from "@/tests/helpers/coin-images";
import { haveRedis } from "@/tests/helpers/redis-server";
import { eventually, startScaleOutOnEngines, type ScaleOutOnEngines, type ScaleOutSession } from "@/tests/helpers/scale-out";

let world: ScaleOutOnEngines;

const ENDLESS = `import time


def endless(image_path):
    time.sleep(3600)
    return {"slept": True}
`;

const SLOW_SIZE = `import time
from PIL import Image


def slow_size(image_path):
    time.sleep(1.0)
    with Image.open(image_path) as image:
        return {"width": image.width, "height": image.height}
`;

beforeAll(async () => {
  // Items never time out here: an endless item ends only on a cancel.
  if (haveRedis()) world = await startScaleOutOnEngines(scenarioPath("hello.json"), { ARGUS_RUN_LEASE_SECONDS: "3", ARGUS_BATCH_ITEM_TIMEOUT_SECONDS: "3600" });
}, 240_000);
afterAll(async () => {
  await world?.close();
});

/** A session made through A, with `fn` kept and 8 uploads: the batch's files. */
async function sessionWithUploads(fn: { name: string; code: string }): Promise<{ session: ScaleOutSession; uploadIds: string[] }> {
  const session = (await world.callA("POST", "/api/sessions")).json as ScaleOutSession;
  const db = await openDatabase(world.databaseUrl);
  try {
    await addFunctionVersion(db, { sessionId: session.id, name: fn.name, code: fn.code, test: `${fn.name}('x.png')`, runId: null, testOutput: "", success: true, now: new Date().toISOString() });
  } finally {
    await db.close();
  }
  const uploadIds: string[] = [];
  for (let i = 0; i < 8; i++) {
    const form = new FormData();
    form.set("file", new Blob([(await coinImage(1 + i, i + 1)) as BlobPart], { type: "image/png" }), `coins-${i}.png`);
    const up = await world.callA("POST", `/api/sessions/${session.id}/uploads`, { token: session.token, raw: form });
    expect(up.status).toBe(201);
    uploadIds.push(up.json.id as string);
  }
  return { session, uploadIds };
}

async function startBatchOnA(session: ScaleOutSession, functionName: string, uploadIds: string[]): Promise<{ batchId: string; page: () => Promise<any> }> {
  const started = await world.callA("POST", `/api/sessions/${session.id}/batches`, { token: session.token, body: { functionName, uploadIds } });
  expect(started.status).toBe(201);
  const batchId = started.json.batch.id as string;
  const page = async () => (await world.callB("GET", `/api/sessions/${session.id}/batches/${batchId}?limit=100`, { token: session.token })).json;
  return { batchId, page };
}

/** The batch's row and its items' rows as Postgres holds them. */
async function stored(batchId: string) {
  const db = await openDatabase(world.databaseUrl);
  try {
    const batch = await db.one<{ status: string; owner: string }>("SELECT status, owner FROM batches WHERE id = ?", [batchId]);
    const items = await db.all<{ idx: number; status: string; result: string | null; error: string | null }>("SELECT idx, status, result, error FROM batch_items WHERE batch_id = ? ORDER BY idx", [batchId]);
    return { batch: batch!, items };
  } finally {
    await db.close();
  }
}

describe.skipIf(!haveRedis())("batches across instances: settling", () => {
  it("a cancel sent to B while A's items wait for their kernels is settled by A on the command, not by a lease running out", async () => {
    const { session, uploadIds } = await sessionWithUploads({ name: "endless", code: ENDLESS });
    const watcher = await watchSession(world.b.url, session);
    const events: BatchEvent[] = [];
    watcher.socket.on("batch", (e: BatchEvent) => events.push(e));
    // The shared Jupyter host answers nothing: A's two lanes take their items (`running`) and wait
    // for kernels that cannot start. Before the fix the owner noticed a cancel only once a kernel had started.
    world.signalJupyter("SIGSTOP");
    try {
      const { batchId, page } = await startBatchOnA(session, "endless", uploadIds);
      await eventually(async () => (await page()).batch.counts.running === 2, "A took two items");
      const runningAtCancel = ((await page()).items as any[]).filter((i) => i.status === "running").map((i) => i.idx as number);

      const cancelled = await world.callB("POST", `/api/sessions/${session.id}/batches/${batchId}/cancel`, { token: session.token });
      expect(cancelled.status).toBe(200);
      // Settled with Jupyter still frozen: nothing waited for a kernel.
      await eventually(async () => (await page()).batch.status !== "running", "the batch settled");
      const end = await page();
      expect(end.batch.status).toBe("cancelled");
      expect(end.batch.counts).toEqual({ pending: 0, running: 0, done: 0, failed: 0, cancelled: 8 });
      for (const item of end.items) expect(item.error).toBe(runningAtCancel.includes(item.idx) ? "Cancelled while it ran." : "Cancelled before it ran.");

      // The owner settled it, on the command, while its lease held: A still owns the batch (a
      // takeover would have made B its owner), the interrupted items carry the owner's words (not
      // "had stopped responding", a cancel of a batch whose lease ran out), and B neither settled
      // it itself (owner unreachable) nor took it over.
      const row = await stored(batchId);
      expect(row.batch).toMatchObject({ status: "cancelled", owner: "a" });
      expect(world.b.output()).not.toContain(`could not reach a to cancel batch ${batchId}`);
      expect(world.b.output()).not.toContain(`taking over batch ${batchId}`);
      // A page on B heard the end live, the items A had taken among it.
      await eventually(() => events.some((e) => e.type === "batch_finished"), "B's page heard the batch end");
      const finished = events.filter((e) => e.type === "item_finished").map((e) => (e as Extract<BatchEvent, { type: "item_finished" }>).item.idx);
      expect(finished.sort()).toEqual([...runningAtCancel].sort());
    } finally {
      world.signalJupyter("SIGCONT");
      watcher.socket.disconnect();
    }
  }, 300_000); // a ceiling above eventually's, so a broken build fails on the state it never reached

  it("kill -9 of the owner with an item in flight: B runs that item again and finishes the batch, one row and one result per item", async () => {
    const { session, uploadIds } = await sessionWithUploads({ name: "slow_size", code: SLOW_SIZE });
    const { batchId, page } = await startBatchOnA(session, "slow_size", uploadIds);
    // A caught mid-item: frozen (SIGSTOP) so nothing changes between reading its items and killing
    // it, with one item finished (its kernel is up) and another taken and running; else thawed and tried again.
    let inFlight: number[] = [];
    await eventually(async () => {
      process.kill(world.a.proc.pid!, "SIGSTOP");
      const items = (await stored(batchId)).items;
      inFlight = items.filter((i) => i.status === "running").map((i) => i.idx);
      if (inFlight.length > 0 && items.some((i) => i.status === "done")) return true;
      process.kill(world.a.proc.pid!, "SIGCONT");
      return false;
    }, "A frozen with an item in flight");
    await world.crashA();

    await eventually(async () => (await page()).batch.status !== "running", "the batch ended");
    // B put the items A left running back to pending and ran them again (at least once)…
    const takeover = new RegExp(`taking over batch ${batchId} \\((\\d+) interrupted item\\(s\\) back to pending\\)`).exec(world.b.output());
    expect(Number(takeover?.[1])).toBe(inFlight.length);
    // …and each kept one row with one result, in the database and in the export.
    const row = await stored(batchId);
    expect(row.batch).toMatchObject({ status: "done", owner: "b" });
    expect(row.items.map((i) => i.idx)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (const item of row.items) {
      expect(item.status).toBe("done");
      expect(JSON.parse(item.result!)).toEqual({ width: expect.any(Number), height: expect.any(Number) });
    }
    for (const idx of inFlight) expect(row.items.filter((i) => i.idx === idx)).toHaveLength(1);
    const csv = await world.callB("GET", `/api/sessions/${session.id}/batches/${batchId}/export.csv`, { token: session.token });
    expect(csv.status).toBe(200);
    const lines = csv.text.trim().split("\n");
    expect(lines).toHaveLength(1 + 8);
  }, 300_000);
});
