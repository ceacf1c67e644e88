import { describe, expect, it } from "vitest";
import type { ToolCatalogueEntry } from "@/lib/foundation/protocol/tool-catalogue";
import { CATALOGUE_BUDGET_CHARS, renderToolCatalogue } from "./tool-catalogue-prompt";

const tool = (name: string, when = "counting things on a tray, measuring each one's area and position, and more besides"): ToolCatalogueEntry => ({
  name,
  signature: `${name}(image, box_threshold=0.5, min_size=None, max_size=None)`,
  summary: `What ${name} finds, with boxes and scores.`,
  category: "detection",
  when,
});

describe("renderToolCatalogue", () => {
  it("says when to reach for get_tool_for_task, vqa and describe, and lists every tool with its signature", () => {
    const text = renderToolCatalogue([tool("detect_a"), tool("detect_b")]);
    expect(text).toContain("get_tool_for_task(task, images)");
    expect(text).toMatch(/vqa\(prompt, images\)/);
    expect(text).toContain("describe(image)");
    expect(text).toContain("- detect_a(image, box_threshold=0.5, min_size=None, max_size=None) — What detect_a finds");
    expect(text).toContain("Use for: counting things on a tray");
  });

  it("stays within its budget by shortening, then dropping, the notes — never a tool", () => {
    const many = Array.from({ length: 30 }, (_, i) => tool(`detect_${i}`, "x".repeat(300)));
    const text = renderToolCatalogue(many);
    expect(text.length).toBeLessThanOrEqual(CATALOGUE_BUDGET_CHARS);
    for (const t of many) expect(text).toContain(`${t.name}(`);
    const tight = renderToolCatalogue(many, 3_000);
    expect(tight.length).toBeLessThanOrEqual(3_000);
  });

  it("shows a newly added tool with no other change", () => {
    const before = renderToolCatalogue([tool("detect_a")]);
    const after = renderToolCatalogue([tool("detect_a"), tool("detect_screws")]);
    expect(before).not.toContain("detect_screws");
    expect(after).toContain("- detect_screws(image");
  });

  it("is empty without a catalogue (Jupyter off)", () => {
    expect(renderToolCatalogue([])).toBe("");
  });
});
