import { describe, expect, it } from "vitest";
import { CellOutputSchema } from "./cell-output";
import { cellOutputText, emptyCellOutput, imagesCaption, isEmptyCellOutput } from "./cell-output-text";

describe("cell output", () => {
  it("writes only the parts that have something, in a fixed order", () => {
    const out = { ...emptyCellOutput(), error: "ZeroDivisionError", stdout: "1" };
    expect(cellOutputText(out)).toBe("----- stdout -----\n1\n----- error -----\nZeroDivisionError");
  });

  it("puts an older log's plain words first, without a section line", () => {
    expect(cellOutputText({ ...emptyCellOutput(), note: "hello\n[Jupyter current working directory: /w]" })).toBe("hello\n[Jupyter current working directory: /w]");
  });

  it("says when a cell had nothing to show", () => {
    expect(isEmptyCellOutput(emptyCellOutput())).toBe(true);
    expect(cellOutputText(emptyCellOutput())).toBe("(the cell ran without output)");
  });

  it("captions the pictures by count, naming the ones passed to view_image", () => {
    expect(imagesCaption({ shown: 0, viewed: 0 })).toBe("");
    expect(imagesCaption({ shown: 2, viewed: 0 })).toBe("2 image(s) displayed");
    expect(imagesCaption({ shown: 2, viewed: 1 })).toBe("2 image(s) displayed, 1 passed to view_image");
  });

  it("refuses a malformed output by field", () => {
    expect(CellOutputSchema.safeParse(emptyCellOutput()).success).toBe(true);
    const bad = CellOutputSchema.safeParse({ ...emptyCellOutput(), images: { shown: -1, viewed: 0 } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(["images", "shown"]);
    expect(CellOutputSchema.safeParse({ ...emptyCellOutput(), extra: 1 }).success).toBe(false);
  });
});
