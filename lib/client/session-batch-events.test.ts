import { describe, expect, it } from "vitest";
import type { BatchEvent } from "@/lib/foundation/protocol/batches";
import { listenToBatches, publishBatchEvent, publishReconnect } from "./session-batch-events";

describe("session batch events", () => {
  it("reach the listeners of their session only, until they stop listening", () => {
    const got: string[] = [];
    const stop = listenToBatches("a", { onBatch: (e) => got.push(`a:${e.type}`), onReconnect: () => got.push("a:reconnect") });
    listenToBatches("b", { onBatch: (e) => got.push(`b:${e.type}`), onReconnect: () => got.push("b:reconnect") });
    publishBatchEvent("a", { type: "batch_created" } as BatchEvent);
    publishReconnect("a");
    stop();
    publishBatchEvent("a", { type: "batch_finished" } as BatchEvent);
    expect(got).toEqual(["a:batch_created", "a:reconnect"]);
  });
});
