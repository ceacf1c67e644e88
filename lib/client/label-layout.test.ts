import { describe, expect, it } from "vitest";
import { labelsThatFit } from "./label-layout";

const shown = { width: 400, height: 300 };

describe("labelsThatFit", () => {
  it("draws every label when none touch", () => {
    const boxes = [0, 25, 50, 75].map((left, i) => ({ left, top: 10, score: 0.5 + i / 10, text: "coin 0.90" }));
    expect(labelsThatFit(boxes, shown)).toEqual([true, true, true, true]);
  });

  it("keeps the strongest of labels that would stack, whatever the order they come in", () => {
    const boxes = [
      { left: 10, top: 10, score: 0.2, text: "coin 0.20" },
      { left: 11, top: 11, score: 0.9, text: "coin 0.90" },
      { left: 12, top: 10, score: 0.5, text: "coin 0.50" },
      { left: 80, top: 80, score: 0.1, text: "coin 0.10" },
    ];
    expect(labelsThatFit(boxes, shown)).toEqual([false, true, false, true]);
  });

  it("lets labels that stack on a small picture apart on a large one", () => {
    const boxes = [
      { left: 0, top: 0, score: 0.9, text: "coin 0.90" },
      { left: 10, top: 0, score: 0.8, text: "coin 0.80" },
    ];
    expect(labelsThatFit(boxes, { width: 200, height: 200 })).toEqual([true, false]);
    expect(labelsThatFit(boxes, { width: 1000, height: 200 })).toEqual([true, true]);
  });

  it("never places two drawn labels over one another in a heap of 29 boxes", () => {
    const boxes = Array.from({ length: 29 }, (_, i) => ({ left: (i % 6) * 3, top: Math.floor(i / 6) * 2, score: (i * 37) % 100 / 100, text: `circle ${(((i * 37) % 100) / 100).toFixed(2)}` }));
    const drawn = labelsThatFit(boxes, shown);
    const rects = boxes.flatMap((b, i) => (drawn[i] ? [{ x: b.left * 4, y: b.top * 3, w: b.text.length * 6.4 + 8, h: 13 }] : []));
    expect(rects.length).toBeGreaterThan(0);
    expect(rects.length).toBeLessThan(29);
    for (const [i, a] of rects.entries()) for (const b of rects.slice(i + 1)) expect(a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h).toBe(false);
  });
});
