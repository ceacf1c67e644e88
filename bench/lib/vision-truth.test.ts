import { describe, expect, it } from "vitest";
import { scorePedestrians, wordsRead } from "./vision-truth";

describe("scorePedestrians", () => {
  const truth: [[number, number, number, number], boolean][] = [
    [[0, 0, 20, 100], true],
    [[100, 0, 120, 100], true],
    [[200, 0, 210, 40], true], // too small to be required
  ];

  it("counts required people found, once each, and boxes on nobody as extras", () => {
    expect(scorePedestrians(truth, [[-5, -5, 25, 110], [-2, 0, 22, 100], [300, 0, 320, 100], [195, 0, 215, 45]])).toEqual({
      required: 2,
      hit: 1,
      extra: 2,
    });
  });

  it("does not take a box far taller than the person for them", () => {
    expect(scorePedestrians(truth, [[90, 0, 130, 300]])).toEqual({ required: 2, hit: 0, extra: 1 });
  });
});

describe("wordsRead", () => {
  it("counts words read alone or run together on a sign", () => {
    expect(wordsRead("NOPARKING\nAT ALL TIMES", ["no", "parking", "all", "times", "notice"])).toBe(4);
  });
});
