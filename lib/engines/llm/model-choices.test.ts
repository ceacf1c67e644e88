import { describe, expect, it } from "vitest";
import { modelChoices } from "./model-choices";

describe("modelChoices", () => {
  it("offers every required role with the server's model, and the browser's only where it is named", () => {
    const without = modelChoices(["a", "b"], { conversation: "c", planner: "p", coder: null, vqa: "v", judge: "j", browser: null });
    expect(without.models).toEqual(["a", "b"]);
    expect(without.roles.map((r) => r.role)).toEqual(["conversation", "planner", "coder", "vqa", "judge"]);
    expect(without.roles.find((r) => r.role === "coder")).toEqual({ role: "coder", serverModel: null });
    const withBrowser = modelChoices([], { conversation: "c", browser: "computer-use" });
    expect(withBrowser.roles.at(-1)).toEqual({ role: "browser", serverModel: "computer-use" });
  });
});
