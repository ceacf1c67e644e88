import { describe, expect, it } from "vitest";
import { percentile, table } from "./stats";

describe("bench stats", () => {
  it("takes nearest-rank percentiles", () => {
    const xs = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(xs, 50)).toBe(50);
    expect(percentile(xs, 99)).toBe(99);
    expect(percentile([5], 99)).toBe(5);
    expect(percentile([], 50)).toBeNaN();
  });
  it("aligns table columns", () => {
    expect(table([["a", "bb"], ["ccc", "d"]])).toBe("a    bb\nccc  d ");
  });
});
