import { describe, expect, it } from "vitest";
import { startOffsetMs } from "./start-clock";

describe("startOffsetMs", () => {
  it("counts from npm start's epoch when it is given", () => {
    expect(startOffsetMs(1_700_000_002_500, "1700000000000", 1_700_000_001_000)).toBe(2500);
  });
  it("counts from the process start when the epoch is missing or malformed", () => {
    expect(startOffsetMs(1_700_000_002_500, undefined, 1_700_000_001_000)).toBe(1500);
    expect(startOffsetMs(1_700_000_002_500, "soon", 1_700_000_001_000)).toBe(1500);
  });
  it("is never negative", () => {
    expect(startOffsetMs(1000, "2000000000000", 0)).toBe(0);
  });
});
