import { describe, expect, it } from "vitest";
import { cellOutputText, emptyCellOutput } from "@/lib/foundation/protocol/cell-output-text";
import { cellOutputFromText } from "./legacy-cell-output";

describe("cellOutputFromText (an older log's cell text)", () => {
  it("reads every section back into its field", () => {
    const text = "----- stdout -----\n3 coins\ndone\n----- stderr -----\nwarn\n----- value -----\n3\n----- images -----\n2 image(s) displayed, 1 passed to view_image\n----- error -----\nTraceback:\nValueError: x";
    expect(cellOutputFromText(text)).toEqual({ stdout: "3 coins\ndone", stderr: "warn", value: "3", images: { shown: 2, viewed: 1 }, error: "Traceback:\nValueError: x", note: "" });
  });

  it("gives back exactly the text it was read from, so the compatible text form is unchanged", () => {
    for (const text of [
      "----- stdout -----\n  indented\n\n----- error -----\n\u001b[0;31mZeroDivisionError\u001b[0m",
      "----- images -----\n1 image(s) displayed",
      "(the cell ran without output)",
    ]) {
      expect(cellOutputText(cellOutputFromText(text))).toBe(text);
    }
  });

  it("reads the no-output sentence as an empty output", () => {
    expect(cellOutputFromText("(the cell ran without output)")).toEqual(emptyCellOutput());
  });

  it("keeps an OpenHands cell's plain output as a note", () => {
    const text = "hello\n[Jupyter current working directory: /workspace]";
    expect(cellOutputFromText(text)).toEqual({ ...emptyCellOutput(), note: text });
  });

  it("keeps a caption it does not know as words", () => {
    expect(cellOutputFromText("----- images -----\nsome pictures")).toEqual({ ...emptyCellOutput(), note: "some pictures" });
  });
});
