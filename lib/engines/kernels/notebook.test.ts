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

  it("with the helpers, starts with the cells that load Argus and tags the cells that failed", () => {
    const failed = { kernelId: "k1", code: "1/0", executionCount: 2, execution: { ...ok(""), error: { name: "ZeroDivisionError", value: "division by zero", traceback: "Traceback" } } };
    const nb = buildNotebook([{ kernelId: "k1", code: "print(load_image('a.png').shape)", executionCount: 1, execution: ok("(2, 2, 3)\n") }, failed], {
      title: "Coins",
      helpers: { packageZip: Buffer.from("PK-zip-bytes"), sessionId: "s-1" },
    });
    expect(nbformatProblems(nb)).toBe("");
    const cells = nb.cells as { id: string; cell_type: string; source: string; metadata: Record<string, unknown> }[];
    expect(cells.map((c) => c.id)).toEqual(["argus-helpers-note", "argus-helpers", "cell-1", "cell-2"]);
    expect(cells[1]!.metadata).toEqual({ argus: { helpers: true }, jupyter: { source_hidden: true } });
    expect(cells[1]!.source).toContain(Buffer.from("PK-zip-bytes").toString("base64"));
    expect(cells[1]!.source).toContain('_os.environ.setdefault("ARGUS_SESSION", "s-1")');
    expect(cells[1]!.source.trimEnd().endsWith("from argus import *")).toBe(true);
    expect(cells[2]!.metadata).toEqual({});
    expect(cells[3]!.metadata).toEqual({ tags: ["raises-exception"] });
  });

  it("is valid when empty", () => {
    expect(nbformatProblems(buildNotebook([], { title: null }))).toBe("");
  });
});
