import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/engines/db/database";
import { addFunctionVersion } from "@/lib/engines/db/functions";
import type { BatchEvent } from "@/lib/foundation/protocol/batches";
import { scenarioPath, watchSession } from "@/tests/helpers/agent-run";
import { coinImage } from "@/tests/helpers/coin-images";
import { haveRedis } from "@/tests/helpers/redis-server";
import { eventually, startScaleOut, type ScaleOutWorld } from "@/tests/helpers/scale-out";

/**
 * A batch whose instance dies goes on elsewhere: two real Argus instances share
 * one database and one Redis; a batch started through A is taken over by B once
 * A's lease on it runs out (kill -9 of A mid-batch), and B resumes it from its
 * first unfinished item. A cancel sent to B reaches A, which stops its own running
 * items. Every wait is for a state, never a clock.
 */
let world: ScaleOutWorld;

// Slow enough per item that A dies with most of the batch still ahead of it.
const SLOW_COUNT = `import time
from PIL import Image


def slow_size(image_path):
    time.sleep(1.0)
    with Image.open(image_path) as image:
        return {"width": image.width, "height": image.height}
`;

// Never ends by itself: an item of it ends only when something stops it.
const ENDLESS = `import time


def endless(image_path):
    time.sleep(3600)
    return {"slept": True}
`;

beforeAll(async () => {
  // Items never time out during a test: an endless item ends only on a cancel.
  world = await startScaleOut(scenarioPath("hello.json"), { ARGUS_RUN_LEASE_SECONDS: "2", ARGUS_BATCH_ITEM_TIMEOUT_SECONDS: "3600" });
}, 240_000);
afterAll(async () => {
  await world?.close();
});

type Session = { id: string; token: string };

/** A session on A with the function kept (the slow one unless told) and a batch of 8 uploads started through A. */
async function startBatchOnA(
  fn = { name: "slow_size", code: SLOW_COUNT },
  before: (session: Session) => Promise<void> = async () => undefined,
): Promise<{ session: Session; batchId: string; page: () => Promise<any> }> {
  const session = (await world.callA("POST", "/api/sessions")).json as Session;
  const db = await openDatabase(world.a.database);
  try {
    await addFunctionVersion(db, { sessionId: session.id, name: fn.name, code: fn.code, test: `${fn.name}('x.png')`, runId: null, testOutput: "", success: true, now: new Date().toISOString() });
  } finally {
    await db.close();
  }
  await before(session);
  const uploadIds: string[] = [];
  for (let i = 0; i < 8; i++) {
    const form = new FormData();
    form.set("file", new Blob([(await coinImage(1 + i, i + 1)) as BlobPart], { type: "image/png" }), `coins-${i}.png`);
    const up = await world.callA("POST", `/api/sessions/${session.id}/uploads`, { token: session.token, raw: form });
    expect(up.status).toBe(201);
    uploadIds.push(up.json.id as string);
  }
  const started = await world.callA("POST", `/api/sessions/${session.id}/batches`, { token: session.token, body: { functionName: fn.name, uploadIds } });
  expect(started.status).toBe(201);
  const batchId = started.json.batch.id as string;
  const page = async () => (await world.callB("GET", `/api/sessions/${session.id}/batches/${batchId}?limit=100`, { token: session.token })).json;
  return { session, batchId, page };
}

/**
 * Waits until A runs as many items as it has lanes (ARGUS_BATCH_PARALLEL, 2): endless items, so
 * no other can start until something stops them. Returns their indexes.
 */
async function whenBothLanesRun(page: () => Promise<any>): Promise<number[]> {
  await eventually(async () => (await page()).batch.counts.running === 2, "A is running two items");
  return (await page()).items.filter((i: any) => i.status === "running").map((i: any) => i.idx as number);
}

/** The batch ended cancelled with nothing left running: the items running at the cancel were interrupted, no other ever started. */
async function expectCancelledWhole(page: () => Promise<any>, runningAtCancel: number[]): Promise<void> {
  await eventually(async () => {
    const p = await page();
    return p.batch.status !== "running" && p.batch.counts.running === 0;
  }, "the batch settled with no item running");
  const end = await page();
  expect(end.batch.status).toBe("cancelled");
  expect(end.batch.counts).toEqual({ pending: 0, running: 0, done: 0, failed: 0, cancelled: 8 });
  for (const item of end.items) {
    const wasRunning = runningAtCancel.includes(item.idx);
    expect(item).toMatchObject({ status: "cancelled", result: null, error: wasRunning ? "Cancelled while it ran." : "Cancelled before it ran." });
  }
}

/** The batch ended done on every item, each with its own result. */
async function expectFinishedWhole(page: () => Promise<any>): Promise<void> {
  await eventually(async () => (await page()).batch.status !== "running", "the batch ended");
  const end = await page();
  expect(end.batch.status).toBe("done");
  expect(end.batch.counts).toEqual({ pending: 0, running: 0, done: 8, failed: 0, cancelled: 0 });
  expect(end.items).toHaveLength(8);
  for (const item of end.items) expect(item.result).toEqual({ width: expect.any(Number), height: expect.any(Number) });
}

describe.skipIf(!haveRedis())("batches across instances", () => {
  it("a cancel sent to B stops the items A is running: they end cancelled, nothing runs after it, the batch ends cancelled", async () => {
    // A page connected to B sees A's batch events (through Redis), as a person's would.
    const events: BatchEvent[] = [];
    let watcher: Awaited<ReturnType<typeof watchSession>> | undefined;
    try {
      const { session, batchId, page } = await startBatchOnA({ name: "endless", code: ENDLESS }, async (s) => {
        watcher = await watchSession(world.b.url, s);
        watcher.socket.on("batch", (e: BatchEvent) => events.push(e));
      });
      const runningAtCancel = await whenBothLanesRun(page);

      const cancelled = await world.callB("POST", `/api/sessions/${session.id}/batches/${batchId}/cancel`, { token: session.token });
      expect(cancelled.status).toBe(200);
      await expectCancelledWhole(page, runningAtCancel);

      // The page on B is told as for a local cancel: the interrupted items, then the batch's end.
      await eventually(() => events.some((e) => e.type === "batch_finished" && e.batch.counts.running === 0), "B's page heard the batch end");
      const last = events.at(-1)!;
      expect(last.type).toBe("batch_finished");
      expect(last.batch).toMatchObject({ status: "cancelled", counts: { pending: 0, running: 0, done: 0, failed: 0, cancelled: 8 } });
      const interrupted = events.filter((e) => e.type === "item_finished").map((e) => (e as Extract<BatchEvent, { type: "item_finished" }>).item);
      expect(interrupted.map((i) => i.idx).sort()).toEqual([...runningAtCancel].sort());
      expect(interrupted.every((i) => i.status === "cancelled")).toBe(true);
      // No item started other than those running when the cancel was sent.
      const started = events.filter((e) => e.type === "item_started").map((e) => (e as Extract<BatchEvent, { type: "item_started" }>).idx);
      expect(started.every((idx) => runningAtCancel.includes(idx))).toBe(true);
      expect(world.a.output()).not.toMatch(new RegExp(`batch ${batchId} was taken over`));
    } finally {
      watcher?.socket.disconnect();
    }
  }, 180_000); // a ceiling above eventually's, so a broken build fails on the state it never reached

  it("a cancel that cannot reach the owner (Redis down) is settled by B, and A stops its items at its next lease renewal", async () => {
    const { session, batchId, page } = await startBatchOnA({ name: "endless", code: ENDLESS });
    const runningAtCancel = await whenBothLanesRun(page);
    await world.redis.stop("SIGKILL");
    try {
      const cancelled = await world.callB("POST", `/api/sessions/${session.id}/batches/${batchId}/cancel`, { token: session.token });
      expect(cancelled.status).toBe(200);
      await eventually(() => world.b.output().includes(`could not reach a to cancel batch ${batchId}`), "B said it could not reach A");
      // A learns it from the database (its lease renewal), with Redis still down.
      await expectCancelledWhole(page, runningAtCancel);
      await eventually(() => world.a.output().includes(`batch ${batchId} was cancelled on another instance; stopping its items here`), "A said why it stopped them");
      expect(world.a.output()).not.toMatch(new RegExp(`batch ${batchId} was taken over`));
    } finally {
      await world.redis.start();
    }
  }, 180_000);

  it("an owner that stalls past its lease loses the batch to B, and on waking stops it without taking it back", async () => {
    const { batchId, page } = await startBatchOnA();
    await eventually(async () => (await page()).batch.counts.done >= 1, "A finished an item");
    process.kill(world.a.proc.pid!, "SIGSTOP");
    try {
      await eventually(() => world.b.output().includes(`taking over batch ${batchId}`), "B took the batch over");
    } finally {
      process.kill(world.a.proc.pid!, "SIGCONT");
    }
    await eventually(() => world.a.output().includes(`batch ${batchId} was taken over by another instance`), "A, awake, gave the batch up");
    await expectFinishedWhole(page);
    // A did not take it back: B owns it to the end.
    expect(world.a.output()).not.toMatch(new RegExp(`taking over batch ${batchId}`));
  }, 300_000); // above the ceilings of its waits, as for the tests above: vitest's 60 s default cut it short at load 25

  it("kill -9 of the instance running a batch: another takes it over and finishes it, nothing lost", async () => {
    const { batchId, page } = await startBatchOnA();
    // A is under way: one item done, most still ahead.
    await eventually(async () => (await page()).batch.counts.done >= 1, "A finished an item");
    await world.crashA();
    // B notices A's lease ran out, takes the batch over and runs the rest.
    await expectFinishedWhole(page);
    expect(world.b.output()).toMatch(new RegExp(`taking over batch ${batchId}`));
  }, 300_000);
});
