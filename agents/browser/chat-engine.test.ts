import { describe, expect, it } from "vitest";
import { computerMove } from "./tools";

describe("the computer tool's arguments", () => {
  it("become a validated action", () => {
    expect(computerMove({ action: "click", x: 10, y: 20 })).toEqual({ tool: "computer", action: { type: "click", x: 10, y: 20, button: "left" }, checks: [] });
    expect(computerMove({ action: "keypress", keys: "ctrl+a" })).toEqual({ tool: "computer", action: { type: "keypress", keys: ["ctrl", "a"] }, checks: [] });
    expect(computerMove({ action: "scroll", x: 1, y: 2, scroll_y: 300, text: null })).toMatchObject({ action: { type: "scroll", scroll_x: 0, scroll_y: 300 } });
  });

  it("or an invalid move that says what is wrong", () => {
    const bad = computerMove({ action: "click", x: "left" });
    expect(bad.tool).toBe("invalid");
    expect(bad.tool === "invalid" && bad.error).toMatch(/not valid: x/);
    expect(computerMove({ action: "fly" })).toMatchObject({ tool: "invalid" });
  });
});
