import { describe, expect, it } from "vitest";
import { waitWords, WaitWireSchema } from "./waits";

describe("waitWords", () => {
  it("says what a cold start waits for, with the seconds once there is one", () => {
    expect(waitWords({ what: "notebook_start", ahead: null }, 0.4)).toBe("Starting a notebook…");
    expect(waitWords({ what: "notebook_start", ahead: null }, 3.9)).toBe("Starting a notebook (3 s so far)…");
  });

  it("names how many requests are ahead when waiting for a free kernel", () => {
    expect(waitWords({ what: "free_kernel", ahead: 2 }, 5)).toBe("Waiting for a free kernel, 2 ahead (5 s so far)…");
    expect(waitWords({ what: "free_kernel", ahead: 0 }, 12)).toBe("Waiting for a free kernel (12 s so far)…");
    expect(waitWords({ what: "free_kernel", ahead: null }, -3)).toBe("Waiting for a free kernel…");
  });
});

describe("WaitWireSchema", () => {
  it("refuses unknown waits and extra keys", () => {
    const ok = { id: "w1", what: "notebook_start", ahead: null, waitedMs: 0, ended: false };
    expect(WaitWireSchema.safeParse(ok).success).toBe(true);
    expect(WaitWireSchema.safeParse({ ...ok, what: "coffee" }).success).toBe(false);
    expect(WaitWireSchema.safeParse({ ...ok, extra: 1 }).success).toBe(false);
    expect(WaitWireSchema.safeParse({ ...ok, waitedMs: -1 }).success).toBe(false);
  });
});
