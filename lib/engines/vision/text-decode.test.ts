import { describe, expect, it } from "vitest";
import type { Box } from "./boxes";
import { ctcGreedy, DEFAULT_REGION_OPTIONS, findTextRegions, groupLines } from "./text-decode";

function map(width: number, height: number, blocks: { box: Box; p: number }[]): Float32Array {
  const prob = new Float32Array(width * height);
  for (const { box, p } of blocks) {
    for (let y = box[1]; y < box[3]; y++) for (let x = box[0]; x < box[2]; x++) prob[y * width + x] = p;
  }
  return prob;
}

describe("findTextRegions", () => {
  it("finds each confident block once, grown by the unclip margin", () => {
    const prob = map(100, 50, [
      { box: [10, 10, 50, 20], p: 0.9 },
      { box: [60, 30, 90, 40], p: 0.8 },
    ]);
    const regions = findTextRegions(prob, 100, 50);
    expect(regions).toHaveLength(2);
    const first = regions.find((region) => region.box[0] < 30)!;
    // 40 x 10 kernel: grows by 40 * 10 * 1.5 / (2 * 50) = 6 px a side.
    expect(first.box).toEqual([4, 4, 56, 26]);
    expect(first.score).toBeCloseTo(0.9);
  });

  it("drops faint regions and specks", () => {
    const prob = map(100, 50, [
      { box: [10, 10, 50, 20], p: 0.45 },
      { box: [70, 30, 72, 32], p: 0.99 },
    ]);
    expect(findTextRegions(prob, 100, 50, DEFAULT_REGION_OPTIONS)).toEqual([]);
  });
});

describe("ctcGreedy", () => {
  it("merges repeats, drops blanks, and keeps doubled letters split by a blank", () => {
    const dictionary = ["a", "b", "l"];
    // steps: b, b, blank, a, l, blank, l  -> "ball"
    const best = [2, 2, 0, 1, 3, 0, 3];
    const probs = new Float32Array(best.length * 4);
    best.forEach((cls, step) => (probs[step * 4 + cls] = 0.9));
    expect(ctcGreedy(probs, best.length, 4, dictionary)).toEqual({ text: "ball", score: expect.closeTo(0.9, 5) });
  });
});

describe("groupLines", () => {
  it("orders boxes top to bottom, and left to right within a line", () => {
    const items = [
      { name: "world", bbox: [60, 12, 100, 30] as Box },
      { name: "second", bbox: [0, 50, 60, 70] as Box },
      { name: "hello", bbox: [0, 10, 50, 30] as Box },
    ];
    expect(groupLines(items).map((line) => line.map((item) => item.name))).toEqual([["hello", "world"], ["second"]]);
  });
});
