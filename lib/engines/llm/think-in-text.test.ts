import { describe, expect, it } from "vitest";
import { isThinkingHabit, splitThinking } from "./think-in-text";

const tools = ["execute_python", "finalize_plan"];

describe("splitThinking", () => {
  it("reads <think>…</think> and <thinking>…</thinking> as thinking", () => {
    expect(splitThinking("<think>Count the coins.</think>\nSure.", tools)).toMatchObject({ thinking: "Count the coins.", rest: "\nSure." });
    expect(splitThinking("<thinking>a</thinking> b <thinking>c</thinking>", tools)).toMatchObject({ thinking: "a\n\nc", rest: " b " });
  });

  it("ends an unclosed <think> at the tagged call after it, so the call is still read", () => {
    const text = "<think>I should segment first.\n<execute_python>\nprint(1)\n</execute_python>";
    const split = splitThinking(text, tools);
    expect(split.thinking).toBe("I should segment first.");
    expect(split.rest).toBe("<execute_python>\nprint(1)\n</execute_python>");
    expect(split.spans[0]!.unclosed).toBe(true);
  });

  it("ends an unclosed <think> at a Hermes <tool_call> block too", () => {
    const split = splitThinking('<think>go\n<tool_call>{"name": "x"}</tool_call>', tools);
    expect(split.rest).toBe('<tool_call>{"name": "x"}</tool_call>');
  });

  it("runs an unclosed <think> with no call after it to the end", () => {
    expect(splitThinking("<think>still thinking", tools)).toMatchObject({ thinking: "still thinking", rest: "" });
  });

  it("reads the text before a lone </think> as thinking (DeepSeek-R1's template opens the tag)", () => {
    expect(splitThinking("The picture shows coins.\n</think>\n\nThere are 24 coins.", tools)).toMatchObject({
      thinking: "The picture shows coins.",
      rest: "\n\nThere are 24 coins.",
    });
  });

  it("leaves a lone </think> after a call alone", () => {
    const text = "<execute_python>\nprint('</think>')\n</execute_python>";
    expect(splitThinking(text, tools)).toMatchObject({ thinking: "", rest: text });
  });

  it("leaves text without thinking as it is", () => {
    expect(splitThinking("There are 24 coins.", tools)).toEqual({ thinking: "", rest: "There are 24 coins.", spans: [] });
  });

  it("calls <think> or an unclosed tag a habit, and a closed <thinking> (the text protocol's format) not", () => {
    expect(isThinkingHabit(splitThinking("<thinking>a</thinking>", tools).spans)).toBe(false);
    expect(isThinkingHabit(splitThinking("<think>a</think>", tools).spans)).toBe(true);
    expect(isThinkingHabit(splitThinking("<thinking>a<execute_python>x</execute_python>", tools).spans)).toBe(true);
  });
});
