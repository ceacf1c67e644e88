import { describe, expect, it } from "vitest";
import { evictedForRoom, idleLongestFirst } from "./idle-sessions";

describe("idleLongestFirst", () => {
  const now = 1_000_000;
  it("lists only kernels idle long enough and not running a cell, longest idle first", () => {
    const order = idleLongestFirst(
      [
        { sessionId: "recent", lastUsed: now - 10_000, busy: false },
        { sessionId: "old", lastUsed: now - 600_000, busy: false },
        { sessionId: "older-but-busy", lastUsed: now - 900_000, busy: true },
        { sessionId: "middle", lastUsed: now - 200_000, busy: false },
      ],
      now,
      120_000,
    );
    expect(order).toEqual(["old", "middle"]);
  });

  it("counts a kernel idle exactly the minimum as idle enough", () => {
    expect(idleLongestFirst([{ sessionId: "a", lastUsed: now - 120_000, busy: false }], now, 120_000)).toEqual(["a"]);
  });

  it("gives nothing when every kernel was used recently", () => {
    expect(idleLongestFirst([{ sessionId: "a", lastUsed: now - 1, busy: false }], now, 120_000)).toEqual([]);
  });
});

describe("evictedForRoom", () => {
  it("says why in the chat's words, with the cap", () => {
    expect(evictedForRoom(24)).toBe("Argus needed its place for another chat's notebook (at most 24 run at once) and it was the one idle longest");
  });
});
