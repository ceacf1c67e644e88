import { describe, expect, it } from "vitest";
import { codeDiff, diffCounts } from "./code-diff";

describe("codeDiff", () => {
  it("numbers kept, removed and added lines on each side", () => {
    const rows = codeDiff("def f(p):\n    x = 1\n    return x\n", "def f(p):\n    x = 2\n    return x\n");
    expect(rows).toEqual([
      { kind: "same", text: "def f(p):", oldLine: 1, newLine: 1 },
      { kind: "removed", text: "    x = 1", oldLine: 2, newLine: null },
      { kind: "added", text: "    x = 2", oldLine: null, newLine: 2 },
      { kind: "same", text: "    return x", oldLine: 3, newLine: 3 },
    ]);
    expect(diffCounts(rows)).toEqual({ added: 1, removed: 1 });
  });

  it("shows identical versions as unchanged lines only", () => {
    expect(diffCounts(codeDiff("a\nb", "a\nb"))).toEqual({ added: 0, removed: 0 });
  });
});
