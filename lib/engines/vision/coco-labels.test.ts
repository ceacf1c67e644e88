import { describe, expect, it } from "vitest";
import { COCO_LABELS, cocoLabelFor } from "./coco-labels";
import { findVisionTool } from "./catalogue";

describe("cocoLabelFor", () => {
  it("knows the 80 classes by their own names", () => {
    expect(COCO_LABELS).toHaveLength(80);
    for (const label of COCO_LABELS) expect(cocoLabelFor(label)).toBe(label);
  });

  it("takes plurals, synonyms, case and separators as people write them", () => {
    expect(cocoLabelFor("people")).toBe("person");
    expect(cocoLabelFor("Cars")).toBe("car");
    expect(cocoLabelFor("cups")).toBe("cup");
    expect(cocoLabelFor("dogs")).toBe("dog");
    expect(cocoLabelFor("buses")).toBe("bus");
    expect(cocoLabelFor("Cell-Phone")).toBe("cell phone");
    expect(cocoLabelFor("phones")).toBe("cell phone");
    expect(cocoLabelFor("traffic_lights")).toBe("traffic light");
    expect(cocoLabelFor("wine glasses")).toBe("wine glass");
    expect(cocoLabelFor("knives")).toBe("knife");
    expect(cocoLabelFor("skis")).toBe("skis");
  });

  it("names nothing for a word outside COCO", () => {
    expect(cocoLabelFor("unicorn")).toBeUndefined();
    expect(cocoLabelFor("")).toBeUndefined();
  });
});

describe("detect_objects parameters", () => {
  const params = findVisionTool("detect_objects")!.params;

  it("fills the defaults and maps labels to class names, once each", () => {
    expect(params.parse({})).toEqual({ labels: null, box_threshold: expect.any(Number) });
    expect(params.parse({ labels: ["people", "person", "cars"] })).toMatchObject({ labels: ["person", "car"] });
    expect(params.parse({ labels: "cup" })).toMatchObject({ labels: ["cup"] });
  });

  it("refuses an unknown label, naming it and listing the known ones", () => {
    const result = params.safeParse({ labels: ["cat", "unicorn"] });
    expect(result.success).toBe(false);
    const issue = result.error!.issues[0]!;
    expect(issue.path).toEqual(["labels"]);
    expect(issue.message).toContain('"unicorn"');
    expect(issue.message).toContain("toothbrush");
  });
});
