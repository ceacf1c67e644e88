import { describe, expect, it } from "vitest";
import { emptyCellOutput } from "@/lib/foundation/protocol/cell-output-text";
import { cellOutputView, cleanTerminalText, plainOutputView } from "./observation-text";

describe("cellOutputView", () => {
  it("shows each typed part, and captions the pictures", () => {
    const out = { stdout: "3 coins\ndone", stderr: "warn", value: "3", images: { shown: 1, viewed: 0 }, error: "Traceback:\nValueError: x", note: "" };
    expect(cellOutputView(out)).toEqual({ stdout: "3 coins\ndone", stderr: "warn", value: "3", images: "1 image(s) displayed", error: "Traceback:\nValueError: x", other: "" });
  });

  it("says when the cell had nothing to show", () => {
    expect(cellOutputView(emptyCellOutput())).toMatchObject({ stdout: "", other: "(the cell ran without output)" });
  });

  it("shows a printed section line as printed text, not as a new part", () => {
    const out = { ...emptyCellOutput(), stdout: "before\n----- error -----\nafter" };
    expect(cellOutputView(out)).toMatchObject({ stdout: "before\n----- error -----\nafter", error: "" });
  });

  it("keeps leading indentation of the first output line", () => {
    expect(cellOutputView({ ...emptyCellOutput(), stdout: "\n  indented\n" }).stdout).toBe("  indented");
  });

  it("strips colour codes and collapses carriage-return redraws", () => {
    expect(cleanTerminalText("\u001b[31mred\u001b[0m")).toBe("red");
    expect(cleanTerminalText(" 10%|#\r 50%|#####\r100%|##########\nnext\r\n")).toBe("100%|##########\nnext\n");
    expect(cellOutputView({ ...emptyCellOutput(), error: "\u001b[0;31mZeroDivisionError\u001b[0m" }).error).toBe("ZeroDivisionError");
  });

  it("shows a command's output as its cleaned text", () => {
    expect(plainOutputView("\n\u001b[1mtotal 0\u001b[0m\n\n")).toBe("total 0");
  });
});
