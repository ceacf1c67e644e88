import { describe, expect, it } from "vitest";
import { PostMessageBody } from "./api";
import { choiceText, InteractionChoiceSchema } from "./interaction-choice";

describe("interaction choice", () => {
  const choice = { kind: "tool_review" as const, function_name: "detect_circles", box_threshold: 0.5 };

  it("accepts a tool review's pick, and refuses one without a usable name or threshold, by field", () => {
    expect(InteractionChoiceSchema.parse(choice)).toEqual(choice);
    const high = InteractionChoiceSchema.safeParse({ ...choice, box_threshold: 1.5 });
    expect(high.error?.issues[0]?.path).toEqual(["box_threshold"]);
    const named = InteractionChoiceSchema.safeParse({ ...choice, function_name: "x); import os" });
    expect(named.error?.issues[0]?.path).toEqual(["function_name"]);
    expect(InteractionChoiceSchema.safeParse({ ...choice, kind: "question" }).success).toBe(false);
    expect(InteractionChoiceSchema.safeParse({ ...choice, extra: 1 }).success).toBe(false);
  });

  it("is sent as an answer, with no words needed, and never as a new message", () => {
    expect(PostMessageBody.safeParse({ role: "interaction_response", content: "", answers: 4, choice }).success).toBe(true);
    const asUser = PostMessageBody.safeParse({ role: "user", content: "", choice });
    expect(asUser.success).toBe(false);
    expect(asUser.error?.issues.map((i) => i.path.join("."))).toContain("choice");
    expect(PostMessageBody.safeParse({ role: "interaction_response", content: "", choice: { ...choice, box_threshold: "0.5" } }).success).toBe(false);
  });

  it("writes the text form the card always answered with", () => {
    expect(choiceText(choice)).toBe('{"function_name":"detect_circles","box_threshold":0.5}');
  });
});
