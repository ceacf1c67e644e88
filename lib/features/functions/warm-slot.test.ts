import { describe, expect, it } from "vitest";
import { chooseWarmSlot } from "./warm-slot";

const slot = (key: string, busy: boolean, lastUsedMs = 0) => ({ key, busy, lastUsedMs });

describe("chooseWarmSlot", () => {
  it("reuses an idle kernel of the same version, never a busy one", () => {
    expect(chooseWarmSlot([slot("a", true), slot("a", false)], "a", 2)).toEqual({ kind: "reuse", index: 1 });
    expect(chooseWarmSlot([slot("a", true)], "a", 2)).toEqual({ kind: "open" });
  });

  it("never gives a call another version's kernel", () => {
    expect(chooseWarmSlot([slot("b", false)], "a", 2)).toEqual({ kind: "open" });
  });

  it("when full, replaces the idle slot unused the longest", () => {
    const slots = [slot("b", false, 30), slot("c", true, 0), slot("d", false, 10)];
    expect(chooseWarmSlot(slots, "a", 3)).toEqual({ kind: "replace", index: 2 });
  });

  it("when full and all busy, or turned off, runs the call in a fresh kernel", () => {
    expect(chooseWarmSlot([slot("b", true), slot("a", true)], "a", 2)).toEqual({ kind: "fresh" });
    expect(chooseWarmSlot([], "a", 0)).toEqual({ kind: "fresh" });
  });
});
