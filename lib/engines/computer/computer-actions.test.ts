import { describe, expect, it } from "vitest";
import { describeAction, parseAction } from "./computer-actions";

describe("parseAction", () => {
  it("reads the Responses API's action shapes, with their defaults", () => {
    expect(parseAction({ type: "click", x: 156, y: 50 })).toEqual({ type: "click", x: 156, y: 50, button: "left" });
    expect(parseAction({ type: "click", x: 1, y: 2, button: "wheel" })).toMatchObject({ button: "wheel" });
    expect(parseAction({ type: "scroll", x: 10, y: 20, scroll_y: 300 })).toEqual({ type: "scroll", x: 10, y: 20, scroll_x: 0, scroll_y: 300 });
    expect(parseAction({ type: "keypress", keys: ["CTRL", "A"] })).toEqual({ type: "keypress", keys: ["CTRL", "A"] });
    expect(parseAction({ type: "drag", path: [{ x: 1, y: 1 }, { x: 5, y: 5 }] }).type).toBe("drag");
    expect(parseAction({ type: "wait" })).toEqual({ type: "wait" });
    expect(parseAction({ type: "screenshot" })).toEqual({ type: "screenshot" });
  });

  it("refuses what a model got wrong, in one sentence", () => {
    expect(() => parseAction({ type: "teleport" })).toThrow(/^That computer action is not valid: type: /);
    expect(() => parseAction({ type: "click", x: "left", y: 3 })).toThrow(/^That computer action is not valid: x: /);
    expect(() => parseAction({ type: "keypress", keys: [] })).toThrow(/keys: /);
    expect(() => parseAction({ type: "wait", ms: 600_000 })).toThrow(/ms: /);
    expect(() => parseAction(null)).toThrow(/^That computer action is not valid/);
  });
});

describe("describeAction", () => {
  it("writes a short line per action", () => {
    expect(describeAction(parseAction({ type: "click", x: 120, y: 45 }))).toBe("click(120, 45)");
    expect(describeAction(parseAction({ type: "click", x: 120, y: 45, button: "right" }))).toBe("click(120, 45, right)");
    expect(describeAction(parseAction({ type: "keypress", keys: ["CTRL", "A"] }))).toBe("keypress(CTRL+A)");
    expect(describeAction(parseAction({ type: "type", text: "x".repeat(100) }))).toBe(`type("${"x".repeat(60)}…")`);
    expect(describeAction(parseAction({ type: "drag", path: [{ x: 1, y: 2 }, { x: 3, y: 4 }] }))).toBe("drag(1,2 → 3,4)");
    expect(describeAction(parseAction({ type: "wait" }))).toBe("wait(1000 ms)");
  });
});
