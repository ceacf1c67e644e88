import { describe, expect, it } from "vitest";
import { batchProgress, firstItemLine, humanSeconds, progressLine } from "./progress";

const counts = (c: Partial<Record<"pending" | "running" | "done" | "failed" | "cancelled", number>>) => ({
  pending: 0, running: 0, done: 0, failed: 0, cancelled: 0, ...c,
});

describe("batchProgress", () => {
  it("has no speed nor time left before the first item finishes", () => {
    expect(batchProgress({ counts: counts({ pending: 10 }), finishedSince: 0, elapsedSeconds: 5 })).toEqual({
      finished: 0, left: 10, itemsPerSecond: null, secondsLeft: null,
    });
  });

  it("counts done and failed as finished, running as left, and projects time left", () => {
    const p = batchProgress({ counts: counts({ pending: 6, running: 2, done: 8, failed: 2 }), finishedSince: 10, elapsedSeconds: 5 });
    expect(p).toEqual({ finished: 10, left: 8, itemsPerSecond: 2, secondsLeft: 4 });
  });

  it("after a restart measures speed only from what this server finished", () => {
    const p = batchProgress({ counts: counts({ pending: 50, done: 150 }), finishedSince: 5, elapsedSeconds: 10 });
    expect(p.itemsPerSecond).toBe(0.5);
    expect(p.secondsLeft).toBe(100);
  });

  it("has nothing left once every item ended (cancelled ones included)", () => {
    expect(batchProgress({ counts: counts({ done: 3, cancelled: 7 }), finishedSince: 3, elapsedSeconds: 1 })).toMatchObject({ finished: 10, left: 0, secondsLeft: 0 });
  });
});

describe("progressLine", () => {
  it("says speed and time left in words", () => {
    expect(progressLine({ finished: 10, left: 8, itemsPerSecond: 2, secondsLeft: 4 })).toBe("2.0 images/s · about 4 s left");
    expect(progressLine({ finished: 0, left: 8, itemsPerSecond: null, secondsLeft: null })).toBe("estimating time left…");
    expect(progressLine({ finished: 8, left: 0, itemsPerSecond: 12.4, secondsLeft: 0 })).toBe("12 images/s");
  });

  it("rounds long waits to minutes and hours", () => {
    expect(humanSeconds(0.2)).toBe("1 s");
    expect(humanSeconds(150)).toBe("3 min");
    expect(humanSeconds(3 * 3600 + 20 * 60)).toBe("3 h 20 min");
  });
});

describe("firstItemLine", () => {
  it("says what a batch waits for before its first item finishes, with the seconds so far", () => {
    expect(firstItemLine({ running: 0, secondsSoFar: 0.2 })).toBe("waiting for a kernel…");
    expect(firstItemLine({ running: 0, secondsSoFar: 7.9 })).toBe("waiting for a kernel (7 s so far)…");
    expect(firstItemLine({ running: 1, secondsSoFar: 45 })).toBe("starting notebooks and running the first image (45 s so far)…");
    expect(firstItemLine({ running: 4, secondsSoFar: null })).toBe("starting notebooks and running the first 4 images…");
  });
});
