import { describe, expect, it } from "vitest";
import { roleLabel, withChoice } from "./model-picker";

describe("withChoice", () => {
  it("sets one role and keeps the others", () => {
    expect(withChoice({ coder: "c2" }, "planner", "p2")).toEqual({ coder: "c2", planner: "p2" });
  });

  it("gives a role back to the server's model with an empty name, without touching the original", () => {
    const before = { coder: "c2", planner: "p2" };
    expect(withChoice(before, "planner", "")).toEqual({ coder: "c2" });
    expect(before).toEqual({ coder: "c2", planner: "p2" });
  });
});

describe("roleLabel", () => {
  it("names roles in words", () => {
    expect(roleLabel("vqa")).toBe("Picture questions");
    expect(roleLabel("planner")).toBe("Planner");
  });
});
