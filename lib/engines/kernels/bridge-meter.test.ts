import { describe, expect, it } from "vitest";
import { BridgeMeter, BridgeRefused } from "./bridge-meter";

describe("BridgeMeter", () => {
  it("admits up to the per-cell count, then refuses with a reason", () => {
    const m = new BridgeMeter(3);
    for (let i = 0; i < 3; i++) m.admit();
    expect(() => m.admit()).toThrow(BridgeRefused);
    expect(() => m.admit()).toThrow(/3 calls/);
    expect(m.callCount).toBe(3);
  });

  it("sums what the cell's model calls spent", () => {
    const m = new BridgeMeter();
    m.charge({ inputTokens: 10, outputTokens: 2 });
    m.charge({ inputTokens: 5, outputTokens: 1 });
    expect(m.usage).toEqual({ inputTokens: 15, outputTokens: 3 });
  });

  it("refuses once the run's tokens, including this cell's, or its time are used up", () => {
    let tokensLeft = 100;
    let msLeft = 1000;
    const m = new BridgeMeter(50, { tokensLeft: () => tokensLeft, msLeft: () => msLeft });
    m.admit();
    m.charge({ inputTokens: 60, outputTokens: 30 });
    m.admit(); // 10 left
    m.charge({ inputTokens: 10, outputTokens: 0 });
    expect(() => m.admit()).toThrow(/token budget/);
    tokensLeft = 1000;
    msLeft = 0;
    expect(() => m.admit()).toThrow(/time budget/);
  });
});
