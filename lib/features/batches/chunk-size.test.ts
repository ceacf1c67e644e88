import { describe, expect, it } from "vitest";
import { nextChunkSize } from "./chunk-size";

const sizing = { max: 32, targetSeconds: 1 };
const fast = (finished: number) => ({ finished, seconds: finished * 0.01, failed: false });

describe("nextChunkSize", () => {
  it("doubles from one while items are fast, up to the largest chunk", () => {
    const sizes = [1];
    for (let i = 0; i < 7; i++) sizes.push(nextChunkSize(sizes.at(-1)!, fast(sizes.at(-1)!), sizing));
    expect(sizes).toEqual([1, 2, 4, 8, 16, 32, 32, 32]);
  });

  it("never grows past what fits in the target time", () => {
    // 0.1 s per item: ten fit in a second.
    expect(nextChunkSize(8, { finished: 8, seconds: 0.8, failed: false }, sizing)).toBe(10);
    expect(nextChunkSize(16, { finished: 16, seconds: 1.6, failed: false }, sizing)).toBe(10);
  });

  it("shrinks to what fits when items turn slow, and stays at one for slow items", () => {
    expect(nextChunkSize(32, { finished: 32, seconds: 8, failed: false }, sizing)).toBe(4);
    expect(nextChunkSize(1, { finished: 1, seconds: 3, failed: false }, sizing)).toBe(1);
  });

  it("halves after a chunk that failed badly, never below one", () => {
    expect(nextChunkSize(16, { finished: 3, seconds: 0.1, failed: true }, sizing)).toBe(8);
    expect(nextChunkSize(1, { finished: 0, seconds: 5, failed: true }, sizing)).toBe(1);
  });

  it("keeps the size when nothing ended, and clamps a size out of range", () => {
    expect(nextChunkSize(4, { finished: 0, seconds: 0, failed: false }, sizing)).toBe(4);
    expect(nextChunkSize(100, fast(100), sizing)).toBe(32);
    expect(nextChunkSize(0, fast(1), sizing)).toBe(2);
  });
});
