import { describe, expect, it } from "vitest";
import { parseArg, DragPathSchema, KeysSchema } from "./computer-args";
import { checkPoint } from "./screen";

describe("checkPoint", () => {
  it("accepts the whole screen, edges included", () => {
    for (const [x, y] of [[0, 0], [1023, 767], [511.5, 0.25]] as const) expect(() => checkPoint(x, y, [1024, 768])).not.toThrow();
  });

  it("refuses points off the screen in words", () => {
    expect(() => checkPoint(2000, 10, [1024, 768])).toThrow("x=2000 is outside the 1024×768 screen (x runs from 0 to 1023).");
    expect(() => checkPoint(10, 768, [1024, 768])).toThrow("y=768 is outside the 1024×768 screen (y runs from 0 to 767).");
    expect(() => checkPoint(-1, 5, [1024, 768])).toThrow(/x=-1 is outside/);
  });
});

describe("parseArg", () => {
  it("names the argument that failed", () => {
    expect(() => parseArg(KeysSchema, [], "keys")).toThrow(/^keys: /);
    expect(() => parseArg(DragPathSchema, [{ x: 1, y: 2 }, { x: "a", y: 3 }], "path")).toThrow(/^path\.1\.x: /);
    expect(parseArg(KeysSchema, ["CTRL", "a"], "keys")).toEqual(["CTRL", "a"]);
  });
});
