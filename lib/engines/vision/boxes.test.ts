import { describe, expect, it } from "vitest";
import { clipBox, iou, nonMaxSuppression, toOriginalPixels, type Box } from "./boxes";

describe("boxes", () => {
  it("measures overlap as intersection over union", () => {
    expect(iou([0, 0, 10, 10], [0, 0, 10, 10])).toBe(1);
    expect(iou([0, 0, 10, 10], [10, 0, 20, 10])).toBe(0);
    expect(iou([0, 0, 10, 10], [5, 0, 15, 10])).toBeCloseTo(50 / 150);
  });

  it("keeps the best of overlapping boxes of one label, and boxes of other labels", () => {
    const items = [
      { label: "car", score: 0.6, bbox: [1, 1, 11, 11] as Box },
      { label: "car", score: 0.9, bbox: [0, 0, 10, 10] as Box },
      { label: "truck", score: 0.5, bbox: [0, 0, 10, 10] as Box },
      { label: "car", score: 0.4, bbox: [50, 50, 60, 60] as Box },
    ];
    expect(nonMaxSuppression(items, 0.5).map((item) => [item.label, item.score])).toEqual([
      ["car", 0.9],
      ["truck", 0.5],
      ["car", 0.4],
    ]);
  });

  it("clips to the image in whole pixels and drops what falls outside", () => {
    expect(clipBox([-3.2, 1.5, 12.1, 8.9], 10, 10)).toEqual([0, 1, 10, 9]);
    expect(clipBox([12, 0, 20, 5], 10, 10)).toBeUndefined();
  });

  it("scales boxes found on a shrunk copy back to the original pixels", () => {
    const found = [{ label: "person", score: 1, bbox: [10, 20, 30, 40] as Box }];
    expect(toOriginalPixels(found, { width: 100, height: 50 }, { width: 400, height: 200 })[0]!.bbox).toEqual([40, 80, 120, 160]);
  });
});
