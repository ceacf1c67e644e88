import { describe, expect, it } from "vitest";
import { kernelStopped } from "./reset-reasons";

describe("kernelStopped", () => {
  it("puts the handle's sentence inside the reason, lower-cased and without its full stop", () => {
    expect(kernelStopped("The kernel died (exit 137).")).toBe("its kernel stopped (the kernel died (exit 137))");
  });
  it("says nothing more when the handle gave no reason", () => {
    expect(kernelStopped(null)).toBe("its kernel stopped");
  });
});
