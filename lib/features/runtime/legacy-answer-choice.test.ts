import { describe, expect, it } from "vitest";
import { choiceFromOldAnswer } from "./legacy-answer-choice";

describe("choiceFromOldAnswer (a tool review answered before answers were typed)", () => {
  it("reads the card's JSON back as a tool-review choice", () => {
    expect(choiceFromOldAnswer('{"function_name":"detect_circles","box_threshold":0.5}')).toEqual({ kind: "tool_review", function_name: "detect_circles", box_threshold: 0.5 });
  });

  it("leaves words, and JSON of any other shape, as words", () => {
    for (const text of ["yes", "{not json", '{"function_name":"x"}', '{"function_name":"x","box_threshold":0.5,"more":1}', '{"function_name":"x","box_threshold":7}', "[1,2]", ' {"function_name":"x","box_threshold":0.5}']) {
      expect(choiceFromOldAnswer(text)).toBeNull();
    }
  });
});
