import { describe, expect, it } from "vitest";
import { nbformatProblems } from "@/tests/helpers/nbformat";
import { buildNotebook, type NotebookCellInput } from "./notebook";

const ok = (stdout: string): NotebookCellInput["execution"] => ({ results: [], stdout, stderr: "", error: null });

describe("buildNotebook", () => {
  it("writes cells with every kind of output as valid nbformat 4", () => {
    const nb = buildNotebook(
      [
        { kernelId: "k1", code: "print('hi')", executionCount: 1, execution: ok("hi\n") },
        {
          kernelId: "k1",
          code: "display(img); 41 + 1",
          executionCount: 2,
          execution: {
            stdout: "",
            stderr: "careful\n",
            error: null,
            results: [
              { data: { "image/png": "iVBORw0KGgo=", "text/plain": "<img>" }, isMain: false, viewed: true },
              { data: { "text/plain": "42", "application/json": '{"a": 1}' }, isMain: true, viewed: false },
            ],
          },
        },
        { kernelId: "k2", code: "1/0", executionCount: 1, execution: { ...ok(""), error: { name: "ZeroDivisionError", value: "division by zero", traceback: "Traceback\nZeroDivisionError" } } },
      ],
      { title: "Coins" },
    );
    expect(nbformatProblems(nb)).toBe("");
    const cells = nb.cells as { cell_type: string; outputs?: { output_type: string }[] }[];
    expect(cells.map((c) => c.cell_type)).toEqual(["code", "code", "markdown", "code"]);
    expect(cells[1]!.outputs!.map((o) => o.output_type)).toEqual(["stream", "display_data", "execute_result"]);
    expect(cells[3]!.outputs!.map((o) => o.output_type)).toEqual(["error"]);
  });

  it("is valid when empty", () => {
    expect(nbformatProblems(buildNotebook([], { title: null }))).toBe("");
  });
});
