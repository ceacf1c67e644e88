import { describe, expect, it } from "vitest";
import { refillDelay, refillPolicy, type RefillPolicy } from "./refill-schedule";

const policy: RefillPolicy = { quietMs: 1000, maxWaitMs: 15_000 };
const at = (now: number, over: { busyCells?: number; lastActivityAt?: number | null; waitingSince?: number | null } = {}) =>
  refillDelay({ busyCells: 0, lastActivityAt: null, waitingSince: null, now, ...over }, policy);

describe("refillDelay", () => {
  it("refills at once on a server where nothing has run or been taken (start-up)", () => {
    expect(at(5000)).toBe(0);
  });

  it("puts the refill off while a cell runs, asking again when the longest wait is up", () => {
    expect(at(10_000, { busyCells: 1, waitingSince: 10_000 })).toBe(15_000);
    expect(at(14_000, { busyCells: 2, waitingSince: 10_000, lastActivityAt: 13_500 })).toBe(11_000);
  });

  it("waits for a quiet spell after the last cell or take, so a run's next cell does not meet a refill", () => {
    expect(at(10_200, { lastActivityAt: 10_000, waitingSince: 9000 })).toBe(800);
    expect(at(11_000, { lastActivityAt: 10_000, waitingSince: 9000 })).toBe(0);
    expect(at(30_000, { lastActivityAt: 10_000 })).toBe(0);
  });

  it("never waits past the longest wait, however busy the kernels stay", () => {
    expect(at(25_000, { busyCells: 3, waitingSince: 10_000 })).toBe(0);
    expect(at(24_900, { lastActivityAt: 24_800, waitingSince: 10_000 })).toBe(100);
    expect(at(26_000, { lastActivityAt: 25_900, waitingSince: 10_000 })).toBe(0);
  });
});

describe("refillPolicy", () => {
  it("turns the schedule off at 0 (refill at once, busy or not), and keeps the longest wait otherwise", () => {
    expect(refillDelay({ busyCells: 2, lastActivityAt: 100, waitingSince: null, now: 100 }, refillPolicy(0))).toBe(0);
    expect(refillPolicy(250)).toEqual({ quietMs: 250, maxWaitMs: 15_000 });
  });
});
