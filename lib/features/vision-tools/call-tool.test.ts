import { describe, expect, it } from "vitest";
import { isArgusError } from "@/lib/foundation/errors";
import { parseToolParams, ToolNameSchema } from "./call-tool";

function refusal(run: () => unknown): { code: string; field?: string; message: string } {
  try {
    run();
  } catch (error) {
    if (isArgusError(error)) return { code: error.code, field: error.field, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("parseToolParams", () => {
  it("reads a JSON object of keyword arguments; no field or an empty one means none", () => {
    expect(parseToolParams('{"labels": ["car"], "box_threshold": 0.4}')).toEqual({ labels: ["car"], box_threshold: 0.4 });
    expect(parseToolParams(null)).toEqual({});
    expect(parseToolParams("  ")).toEqual({});
  });

  it("refuses anything but a JSON object with a 400 naming params", () => {
    for (const bad of ["{", "[1, 2]", "3", '"x"', "null"]) {
      const { code, field } = refusal(() => parseToolParams(bad));
      expect([bad, code, field]).toEqual([bad, "bad_request:tool", "params"]);
    }
    expect(refusal(() => parseToolParams(new File(["{}"], "p.json"))).field).toBe("params");
  });
});

describe("ToolNameSchema", () => {
  it("takes tool names and nothing that could be a path or a prototype key", () => {
    expect(ToolNameSchema.safeParse("detect_objects").success).toBe(true);
    for (const bad of ["../x", "Detect", "__proto__", "a b", "", "x".repeat(65)]) expect(ToolNameSchema.safeParse(bad).success, bad).toBe(false);
  });
});
