import { describe, expect, it } from "vitest";
import { executionText } from "./execution-text";

describe("executionText", () => {
  it("lays out every part an agent needs", () => {
    const text = executionText({
      stdout: "24 coins\n",
      stderr: "warning\n",
      error: { name: "ValueError", value: "bad", traceback: "Traceback...\nValueError: bad" },
      results: [
        { data: { "image/png": "x", "text/plain": "<Figure>" }, isMain: false, viewed: true },
        { data: { "text/plain": "24" }, isMain: true, viewed: false },
      ],
    });
    expect(text).toBe(
      "----- stdout -----\n24 coins\n----- stderr -----\nwarning\n----- value -----\n24\n----- images -----\n1 image(s) displayed, 1 passed to view_image\n----- error -----\nTraceback...\nValueError: bad",
    );
  });
  it("says when there was nothing", () => {
    expect(executionText({ stdout: "", stderr: "", error: null, results: [] })).toBe("(the cell ran without output)");
  });
});
