import { describe, expect, it } from "vitest";
import { isArgusError, statusOf, type ArgusError } from "@/lib/foundation/errors";
import { VisionError } from "@/lib/engines/vision/errors";
import { toolError } from "./errors";

const mapped = (error: unknown) => {
  const out = toolError("detect_objects", error);
  expect(isArgusError(out)).toBe(true);
  return out as ArgusError;
};

describe("toolError", () => {
  it("gives each engine refusal its HTTP meaning", () => {
    expect(statusOf(mapped(new VisionError("unknown_tool", "no such tool")))).toBe(404);
    const params = mapped(new VisionError("bad_params", "box_threshold: too big", { field: "box_threshold" }));
    expect([statusOf(params), params.field, params.message]).toEqual([400, "params.box_threshold", "detect_objects: box_threshold: too big"]);
    expect(mapped(new VisionError("bad_params", "bad")).field).toBe("params");
    expect(mapped(new VisionError("bad_image", "cannot decode")).field).toBe("image");
    const busy = mapped(new VisionError("busy", "queue full", { retryAfterSeconds: 3 }));
    expect([statusOf(busy), busy.retryAfterSeconds]).toEqual([429, 3]);
    expect(mapped(new VisionError("busy", "queue full")).retryAfterSeconds).toBe(1);
    expect(statusOf(mapped(new VisionError("unavailable", "weights missing")))).toBe(503);
    expect(statusOf(mapped(new VisionError("aborted", "stopped")))).toBe(503);
    expect(statusOf(mapped(new VisionError("failed", "model crashed")))).toBe(500);
  });

  it("recognises the engine's error by its shape (route bundles have their own copy of the class)", () => {
    const copy = Object.assign(new Error("queue full"), { name: "VisionError", code: "busy", retryAfterSeconds: 2 });
    expect(statusOf(mapped(copy))).toBe(429);
  });

  it("passes on anything else unchanged", () => {
    const plain = new Error("boom");
    expect(toolError("detect_objects", plain)).toBe(plain);
    const odd = Object.assign(new Error("x"), { name: "VisionError", code: "nonsense" });
    expect(toolError("detect_objects", odd)).toBe(odd);
  });
});
