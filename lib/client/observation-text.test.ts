import { describe, expect, it } from "vitest";
import { cleanTerminalText, parseObservation } from "./observation-text";

describe("parseObservation", () => {
  it("splits execution text into sections", () => {
    const text = "----- stdout -----\n3 coins\ndone\n----- stderr -----\nwarn\n----- value -----\n3\n----- images -----\n1 image(s) displayed\n----- error -----\nTraceback:\nValueError: x";
    expect(parseObservation(text)).toEqual({ stdout: "3 coins\ndone", stderr: "warn", value: "3", images: "1 image(s) displayed", error: "Traceback:\nValueError: x", other: "" });
  });

  it("keeps text outside sections as other", () => {
    expect(parseObservation("(the cell ran without output)")).toMatchObject({ stdout: "", other: "(the cell ran without output)" });
  });

  it("keeps leading indentation of the first output line", () => {
    expect(parseObservation("----- stdout -----\n  indented\n").stdout).toBe("  indented");
  });

  it("strips colour codes and collapses carriage-return redraws", () => {
    expect(cleanTerminalText("\u001b[31mred\u001b[0m")).toBe("red");
    expect(cleanTerminalText(" 10%|#\r 50%|#####\r100%|##########\nnext\r\n")).toBe("100%|##########\nnext\n");
    expect(parseObservation("----- error -----\n\u001b[0;31mZeroDivisionError\u001b[0m").error).toBe("ZeroDivisionError");
  });
});
