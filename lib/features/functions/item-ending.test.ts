import { describe, expect, it } from "vitest";
import type { Execution } from "@/lib/foundation/protocol/contexts";
import { DEFAULT_FUNCTION_LIMITS } from "./function-runner-types";
import { itemEnding } from "./item-ending";

const execution = (over: Partial<Execution> = {}): Execution => ({ results: [], stdout: "", stderr: "", error: null, ...over });
const at = (over: Partial<Parameters<typeof itemEnding>[1]> = {}) => ({
  timedOut: -1,
  next: 1,
  cancelled: false,
  endedByOverflow: false,
  limits: { ...DEFAULT_FUNCTION_LIMITS, timeoutMs: 2500 },
  wallSeconds: 0.7,
  ...over,
});

describe("itemEnding", () => {
  it("blames the running item whose own clock ran out, in seconds a person reads", () => {
    expect(itemEnding(execution(), at({ timedOut: 1 }))).toEqual({
      result: null,
      stdout: "",
      images: [],
      seconds: 0.7,
      error: { kind: "timeout", message: "The function ran longer than 2.5 s on this file and was stopped." },
    });
  });

  it("says a cancelled item was cancelled", () => {
    expect(itemEnding(execution(), at({ cancelled: true }))?.error).toEqual({ kind: "cancelled", message: "Cancelled while it ran." });
  });

  it("does not blame the item when its predecessor's clock ran out", () => {
    expect(itemEnding(execution(), at({ timedOut: 0 }))).toBeNull();
  });

  it("does not blame the item when the kernel ended the chunk after an overflow", () => {
    expect(itemEnding(execution(), at({ endedByOverflow: true }))).toBeNull();
    expect(itemEnding(execution({ error: { name: "KernelDied", value: "gone", traceback: "" } }), at({ endedByOverflow: true }))?.error?.kind).toBe("crashed");
  });

  it("reports how the cell ended otherwise, with what it printed", () => {
    const out = itemEnding(execution({ stdout: "working…", error: { name: "KernelDied", value: "The kernel died", traceback: "" } }), at());
    expect(out).toMatchObject({ result: null, stdout: "working…", images: [], error: { kind: "crashed" } });
  });
});
