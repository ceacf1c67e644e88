import { describe, expect, it } from "vitest";
import type { BatchItemView, BatchView } from "@/lib/foundation/protocol/batches";
import { applyBatchEvent, withPage } from "./batch-state";

const counts = { pending: 2, running: 0, done: 0, failed: 0, cancelled: 0 };
const batch = (id = "b1", over: Partial<BatchView> = {}): BatchView => ({
  id, sessionId: "s", functionName: "f", functionVersion: 1, status: "running", total: 2, counts, createdAt: "t", startedAt: null, finishedAt: null, ...over,
});
const progress = { finished: 0, left: 2, itemsPerSecond: null, secondsLeft: null };
const row = (idx: number, over: Partial<BatchItemView> = {}): BatchItemView => ({
  idx, fileName: `${idx}.png`, uploadId: null, status: "pending", result: null, stdout: null, seconds: null, error: null, overlayFileId: null, finishedAt: null, ...over,
});

describe("batch state", () => {
  it("marks rows running and finished as events arrive", () => {
    let s = withPage({ batch: batch(), progress, items: [] }, [row(0), row(1)]);
    s = applyBatchEvent(s, { type: "item_started", batch: batch(), progress, idx: 1 });
    expect(s.items[1]!.status).toBe("running");
    s = applyBatchEvent(s, { type: "item_finished", batch: batch(), progress, item: row(1, { status: "done", result: { count: 3 } }) });
    expect(s.items[1]).toMatchObject({ status: "done", result: { count: 3 } });
    expect(s.items[0]!.status).toBe("pending");
  });

  it("keeps a finished row when an older page arrives late", () => {
    let s = applyBatchEvent({ batch: batch(), progress, items: [] }, { type: "item_finished", batch: batch(), progress, item: row(0, { status: "done" }) });
    s = withPage(s, [row(0), row(1)]);
    expect(s.items.map((r) => r.status)).toEqual(["done", "pending"]);
  });

  it("starts over when another batch's event arrives", () => {
    const s = applyBatchEvent({ batch: batch(), progress, items: [row(0)] }, { type: "batch_created", batch: batch("b2"), progress });
    expect(s.batch.id).toBe("b2");
    expect(s.items).toEqual([]);
  });

  it("a row never goes back: an event before the page, then a stale page", () => {
    let s = applyBatchEvent({ batch: batch(), progress, items: [] }, { type: "item_started", batch: batch(), progress, idx: 1 });
    s = withPage(s, [row(0), row(1)]);
    expect(s.items.map((r) => [r.fileName, r.status])).toEqual([["0.png", "pending"], ["1.png", "running"]]);
    s = withPage(s, [row(1, { status: "cancelled" })]);
    expect(s.items[1]!.status).toBe("cancelled");
  });
});
