import { describe, expect, it } from "vitest";
import { iou, separatingThreshold } from "./review-threshold";

const box = (score: number, x: number, y = 0, size = 10) => ({ score, bbox: [x, y, x + size, y + size] });

describe("separatingThreshold", () => {
  it("keeps the floor when no boxes stack", () => {
    expect(separatingThreshold([box(0.9, 0), box(0.2, 20), box(0.06, 40)], 0.05)).toBe(0.05);
  });

  it("rises just above the strongest box that stacks on a stronger one", () => {
    // 0.9 and 0.8 are apart; the 0.42 guess sits on the 0.9 box; the 0.1 one lies apart but is weaker.
    const found = [box(0.9, 0), box(0.8, 30), box(0.42, 1), box(0.1, 60)];
    expect(separatingThreshold(found, 0.05)).toBe(0.43);
    expect(found.filter((d) => d.score >= 0.43).map((d) => d.score)).toEqual([0.9, 0.8]);
  });

  it("hides a stacked box whose score lies between two steps", () => {
    expect(separatingThreshold([box(0.7, 0), box(0.551, 2)], 0.05)).toBe(0.56);
  });

  it("never goes below the floor nor above 1, and ignores boxes that are not numbers", () => {
    expect(separatingThreshold([box(1, 0), box(1, 0)], 0.05)).toBe(1);
    expect(separatingThreshold([{ score: Number.NaN, bbox: [0, 0, 10, 10] }, { score: 0.5, bbox: [0, 0, Number.NaN, 3] }, box(0.4, 0)], 0.05)).toBe(0.05);
    expect(separatingThreshold([box(0.9, 0), box(0.02, 0)], 0.05)).toBe(0.05);
  });
});

describe("iou", () => {
  it("is 1 for the same box, 0 for disjoint or empty ones", () => {
    expect(iou([0, 0, 10, 10], [0, 0, 10, 10])).toBe(1);
    expect(iou([0, 0, 10, 10], [20, 20, 30, 30])).toBe(0);
    expect(iou([0, 0, 0, 0], [0, 0, 0, 0])).toBe(0);
    expect(iou([0, 0, 10, 10], [5, 0, 15, 10])).toBeCloseTo(1 / 3);
  });
});
