import { describe, expect, it } from "vitest";
import { ToolProtocolChoice } from "./protocol-choice";

describe("ToolProtocolChoice", () => {
  it("auto starts native and moves one model to text, logging once", () => {
    const log: string[] = [];
    const choice = new ToolProtocolChoice({}, (l) => log.push(l));
    expect(choice.current("planner", "llava")).toBe("native");
    expect(choice.switchToText("planner", "llava", "tools_rejected")).toBe(true);
    expect(choice.switchToText("coder", "llava", "answered_in_text")).toBe(true);
    expect(choice.current("planner", "llava")).toBe("text");
    expect(choice.current("coder", "llava")).toBe("text");
    expect(choice.current("planner", "gpt-4o")).toBe("native");
    expect(log).toHaveLength(1);
    expect(log[0]).toContain("llava (planner) now uses the text tool protocol: its endpoint rejected the request's tools");
  });

  it("an explicit setting is kept and never switched", () => {
    const choice = new ToolProtocolChoice({ planner: "native", coder: "text" });
    expect(choice.switchToText("planner", "m", "tools_rejected")).toBe(false);
    expect(choice.current("planner", "m")).toBe("native");
    expect(choice.current("coder", "m")).toBe("text");
    expect(choice.setting("judge")).toBe("auto");
  });
});
