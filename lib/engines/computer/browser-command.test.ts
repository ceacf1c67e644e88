import { describe, expect, it } from "vitest";
import { commandPointer, commandSummary, readCommand } from "./browser-command";
import { isConfirmation } from "./browser-steps";

const start = { startUrl: "http://lab/" };

describe("browser commands", () => {
  it("read back what the agent wrote, and nothing else", () => {
    const c = { ...start, tool: "computer", action: { type: "keypress", keys: ["CTRL", "A"] }, checks: [] };
    expect(readCommand(JSON.stringify(c))).toEqual(c);
    expect(readCommand("not json")).toBeNull();
    expect(readCommand(JSON.stringify({ ...start, tool: "computer", action: { type: "fly" } }))).toBeNull();
  });

  it("say what they do in one line, and where the pointer acts", () => {
    expect(commandSummary({ ...start, tool: "goto", url: "http://lab/x" })).toBe("goto(http://lab/x)");
    expect(commandSummary({ ...start, tool: "save_image", name: "p.png", selector: "#p img" })).toBe("save_image(p.png, #p img)");
    const scroll = { ...start, tool: "computer" as const, action: { type: "scroll" as const, x: 10, y: 20, scroll_x: 0, scroll_y: 300 }, checks: [] };
    expect(commandSummary(scroll)).toBe("scroll(10, 20, by 0, 300)");
    expect(commandPointer(scroll)).toEqual({ x: 10, y: 20 });
    expect(commandPointer({ ...start, tool: "save_image", name: "r.png", region: { x: 0, y: 0, width: 100, height: 50 } })).toEqual({ x: 50, y: 25 });
    expect(commandPointer({ ...start, tool: "back" })).toBeNull();
  });
});

describe("a safety card's answer", () => {
  it("allows the step only when the person confirms", () => {
    for (const yes of ["Confirm", " confirm ", "yes", "OK"]) expect(isConfirmation(yes)).toBe(true);
    for (const no of ["Refuse", "", "confirm it later", "no", '{"answer":"Confirm"}']) expect(isConfirmation(no)).toBe(false);
  });
});
