import { describe, expect, it } from "vitest";
import { chosenModels } from "./chosen-models";

describe("chosenModels", () => {
  it("reads a session's choice per role", () => {
    expect(chosenModels({ toolReview: false, models: { planner: "qwen3-vl", coder: "coder-2" } })).toEqual({ planner: "qwen3-vl", coder: "coder-2" });
  });

  it("is empty without a choice, or when what is stored is not one", () => {
    expect(chosenModels({})).toEqual({});
    expect(chosenModels({ models: { wizard: "x" } })).toEqual({});
    expect(chosenModels({ models: { planner: "two\nlines" } })).toEqual({});
    expect(chosenModels({ models: "planner" })).toEqual({});
  });
});
