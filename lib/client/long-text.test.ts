import { describe, expect, it } from "vitest";
import { collapsedPreview } from "./long-text";

describe("collapsedPreview", () => {
  it("shows short text whole", () => {
    expect(collapsedPreview("How many coins?")).toBeNull();
    expect(collapsedPreview("line\n".repeat(14))).toBeNull();
    expect(collapsedPreview("x".repeat(1500))).toBeNull();
  });

  it("keeps the first lines of a long paste", () => {
    const text = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join("\n");
    const preview = collapsedPreview(text)!;
    expect(preview.split("\n")).toHaveLength(12);
    expect(preview.startsWith("line 1\n")).toBe(true);
    expect(preview.endsWith("line 12…")).toBe(true);
  });

  it("cuts one huge line at a word near the limit", () => {
    const text = "word ".repeat(4000);
    const preview = collapsedPreview(text)!;
    expect(preview.length).toBeLessThanOrEqual(1201);
    expect(preview.endsWith("word…")).toBe(true);
    expect(collapsedPreview("y".repeat(20_000))).toBe(`${"y".repeat(1200)}…`);
  });
});
