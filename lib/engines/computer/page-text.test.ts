import { describe, expect, it } from "vitest";
import { firstLine, oneLine } from "./page-text";

describe("oneLine", () => {
  it("flattens control and direction characters into spaces and trims", () => {
    expect(oneLine("  a\nb\tc\u202eevil\u2066 ", 100)).toBe("a b c evil");
  });

  it("cuts long text short with an ellipsis", () => {
    expect(oneLine("x".repeat(20), 5)).toBe("xxxxx…");
    expect(oneLine("short", 5)).toBe("short");
  });
});

describe("firstLine", () => {
  it("keeps the first line of an error's message, at most 300 characters", () => {
    expect(firstLine(new Error("page.goto: net::ERR_FAILED\nCall log:\n  - navigating"))).toBe("page.goto: net::ERR_FAILED");
    expect(firstLine(new Error("y".repeat(400)))).toHaveLength(300);
  });

  it("reads a thrown value that is not an Error", () => {
    expect(firstLine("plain words")).toBe("plain words");
    expect(firstLine(undefined)).toBe("undefined");
  });
});
