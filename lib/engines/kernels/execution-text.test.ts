import { describe, expect, it } from "vitest";
import { cellOutputText } from "@/lib/foundation/protocol/cell-output-text";
import type { Execution } from "@/lib/foundation/protocol/contexts";
import { cellOutputOf } from "./execution-text";

describe("cellOutputOf", () => {
  const execution: Execution = {
    stdout: "24 coins\n",
    stderr: "warning\n",
    error: { name: "ValueError", value: "bad", traceback: "Traceback...\nValueError: bad" },
    results: [
      { data: { "image/png": "x", "text/plain": "<Figure>" }, isMain: false, viewed: true },
      { data: { "text/plain": "24" }, isMain: true, viewed: false },
    ],
  };

  it("types every part an agent needs, from the kernel's result", () => {
    expect(cellOutputOf(execution)).toEqual({
      stdout: "24 coins",
      stderr: "warning",
      value: "24",
      images: { shown: 1, viewed: 1 },
      error: "Traceback...\nValueError: bad",
      note: "",
    });
  });

  it("writes the text form agents read, every part under its line", () => {
    expect(cellOutputText(cellOutputOf(execution))).toBe(
      "----- stdout -----\n24 coins\n----- stderr -----\nwarning\n----- value -----\n24\n----- images -----\n1 image(s) displayed, 1 passed to view_image\n----- error -----\nTraceback...\nValueError: bad",
    );
  });

  it("leaves out a value that is a picture, and names an error without a traceback", () => {
    const out = cellOutputOf({
      stdout: "",
      stderr: "",
      error: { name: "Unavailable", value: "Jupyter is off.", traceback: "" },
      results: [{ data: { "image/jpeg": "x", "text/plain": "<Image>" }, isMain: true, viewed: false }],
    });
    expect(out).toMatchObject({ value: "", images: { shown: 1, viewed: 0 }, error: "Unavailable: Jupyter is off." });
  });

  it("says when there was nothing", () => {
    expect(cellOutputText(cellOutputOf({ stdout: "", stderr: "", error: null, results: [] }))).toBe("(the cell ran without output)");
  });
});
