import { describe, expect, it } from "vitest";
import { describeMove, functionMove, functionTools, messageText, readChecks, summaryText } from "./responses-items";

describe("responses-items: what a response's items say", () => {
  it("offers goto, back, save_image and done as Responses function tools with JSON-schema parameters", () => {
    const tools = functionTools();
    expect(tools.map((t) => t.name)).toEqual(["goto", "back", "save_image", "done"]);
    for (const tool of tools) {
      expect(tool.type).toBe("function");
      expect(tool.parameters).toMatchObject({ type: "object" });
    }
  });

  it("reads a reasoning summary's texts and a message's text apart from its refusal", () => {
    expect(summaryText({ type: "reasoning", summary: [{ type: "summary_text", text: "look left" }, { text: 3 }, { text: "then click" }] })).toBe("look left\nthen click");
    expect(summaryText({ type: "reasoning" })).toBe("");
    const content = [
      { type: "output_text", text: "The price is " },
      { type: "refusal", refusal: "I won't log in." },
      { type: "output_text", text: "12 €." },
    ];
    expect(messageText({ type: "message", content })).toEqual({ text: "The price is 12 €.", refusal: "I won't log in." });
  });

  it("keeps only pending checks with an id, and puts words where the model gave none", () => {
    expect(readChecks("nope")).toEqual([]);
    expect(readChecks([{ id: "c1", code: "malicious_instructions", message: "Odd text." }, { code: "no id" }, { id: "c2" }])).toEqual([
      { id: "c1", code: "malicious_instructions", message: "Odd text." },
      { id: "c2", code: "model_check", message: "The model flagged this step." },
    ]);
  });

  it("turns a function call into its move, and an unknown function or bad arguments into an invalid move that says why", () => {
    expect(functionMove("goto", JSON.stringify({ url: "https://example.org/" }))).toEqual({ tool: "goto", url: "https://example.org/" });
    expect(functionMove("back", "")).toEqual({ tool: "back" });
    expect(functionMove("done", JSON.stringify({ answer: "42" }))).toEqual({ tool: "done", answer: "42" });

    const unknown = functionMove("open_tab", "{}");
    expect(unknown).toMatchObject({ tool: "invalid", summary: "open_tab({})" });
    expect(unknown.tool === "invalid" && unknown.error).toContain("goto, back, save_image, done");
    const notJson = functionMove("goto", "{url:");
    expect(notJson.tool === "invalid" && notJson.error).toBe("The arguments of goto are not valid JSON.");
    const wrong = functionMove("goto", JSON.stringify({ url: 7 }));
    expect(wrong.tool === "invalid" && wrong.error).toMatch(/^The arguments of goto are not valid: url: /);
  });

  it("describes each move in one line", () => {
    expect(describeMove({ tool: "computer", action: { type: "click", x: 3, y: 4, button: "left" }, checks: [] })).toBe("click(3, 4)");
    expect(describeMove({ tool: "goto", url: "https://example.org/" })).toBe("goto(https://example.org/)");
    expect(describeMove({ tool: "back" })).toBe("back()");
    expect(describeMove({ tool: "save_image", name: "cat.png" })).toBe("save_image(cat.png)");
    expect(describeMove({ tool: "done", answer: "x" })).toBe("done");
    expect(describeMove({ tool: "invalid", error: "e", summary: "goto(?)" })).toBe("goto(?)");
  });
});
