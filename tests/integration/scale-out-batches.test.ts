import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db/database";
import { addFunctionVersion } from "@/lib/db/functions";
import { scenarioPath } from "@/tests/helpers/agent-run";
import { coinImage } from "@/tests/helpers/coin-images";
import { haveRedis } from "@/tests/helpers/redis-server";
import { eventually, startScaleOut, type ScaleOutWorld } from "@/tests/helpers/scale-out";

/**
 * A batch whose instance dies goes on elsewhere: two real Argus instances share
 * one database and one Redis; a batch started through A is taken over by B once
 * A's lease on it runs out (kill -9 of A mid-batch), and B resumes it from its
 * first unfinished item. Every wait is for a state, never a clock.
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

beforeAll(async () => {
  world = await startScaleOut(scenarioPath("hello.json"), { ARGUS_RUN_LEASE_SECONDS: "2" });
}, 240_000);
afterAll(async () => {
  await world?.close();
});

type Session = { id: string; token: string };

/** A session on A with the slow function kept and a batch of 8 uploads started through A. */
async function startBatchOnA(): Promise<{ session: Session; batchId: string; page: () => Promise<any> }> {
  const session = (await world.callA("POST", "/api/sessions")).json as Session;
  const db = await openDatabase(world.a.database);
  try {
    await addFunctionVersion(db, { sessionId: session.id, name: "slow_size", code: SLOW_COUNT, test: "slow_size('x.png')", runId: null, testOutput: "", success: true, now: new Date().toISOString() });
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
  const started = await world.callA("POST", `/api/sessions/${session.id}/batches`, { token: session.token, body: { functionName: "slow_size", uploadIds } });
  expect(started.status).toBe(201);
  const batchId = started.json.batch.id as string;
  const page = async () => (await world.callB("GET", `/api/sessions/${session.id}/batches/${batchId}?limit=100`, { token: session.token })).json;
  return { session, batchId, page };
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
  });

  it("kill -9 of the instance running a batch: another takes it over and finishes it, nothing lost", async () => {
    const { batchId, page } = await startBatchOnA();
    // A is under way: one item done, most still ahead.
    await eventually(async () => (await page()).batch.counts.done >= 1, "A finished an item");
    await world.crashA();
    // B notices A's lease ran out, takes the batch over and runs the rest.
    await expectFinishedWhole(page);
    expect(world.b.output()).toMatch(new RegExp(`taking over batch ${batchId}`));
  });
});
