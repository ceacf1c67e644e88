import { describe, expect, it } from "vitest";
import { nextWait } from "./session-waits";

const wire = (over: Record<string, unknown> = {}) => ({ id: "w1", what: "notebook_start", ahead: null, waitedMs: 0, ended: false, ...over });

describe("nextWait", () => {
  it("starts the count from how long the server had already waited", () => {
    expect(nextWait(null, wire({ waitedMs: 2500 }), 10_000)).toEqual({ id: "w1", what: "notebook_start", ahead: null, startedAt: 7500 });
  });

  it("keeps the start when the same wait changes, and clears only on its own end", () => {
    const first = nextWait(null, wire({ what: "free_kernel", ahead: 2 }), 1000)!;
    const changed = nextWait(first, wire({ what: "notebook_start", waitedMs: 4000 }), 5000)!;
    expect(changed).toEqual({ id: "w1", what: "notebook_start", ahead: null, startedAt: 1000 });
    expect(nextWait(changed, wire({ id: "other", ended: true }), 6000)).toBe(changed);
    expect(nextWait(changed, wire({ ended: true, waitedMs: 5000 }), 6000)).toBeNull();
  });

  it("ignores what is not a wait", () => {
    const shown = nextWait(null, wire(), 0);
    expect(nextWait(shown, { id: "w2", what: "lunch" }, 1)).toBe(shown);
    expect(nextWait(shown, null, 1)).toBe(shown);
  });
});
