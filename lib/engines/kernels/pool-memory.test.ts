import { describe, expect, it } from "vitest";
import { kernelsThatFit } from "./pool-memory";

const MB = 1024 * 1024;

describe("kernelsThatFit", () => {
  it("counts whole kernels above the reserve", () => {
    expect(kernelsThatFit({ availableBytes: 2000 * MB, perKernelBytes: 300 * MB, reserveBytes: 1000 * MB }, 0)).toBe(3);
  });
  it("counts kernels still starting as already used", () => {
    expect(kernelsThatFit({ availableBytes: 2000 * MB, perKernelBytes: 300 * MB, reserveBytes: 1000 * MB }, 2)).toBe(1);
  });
  it("is zero, never negative, below the reserve", () => {
    expect(kernelsThatFit({ availableBytes: 500 * MB, perKernelBytes: 300 * MB, reserveBytes: 1000 * MB }, 3)).toBe(0);
  });
  it("is zero for nonsense inputs", () => {
    expect(kernelsThatFit({ availableBytes: Number.NaN, perKernelBytes: 300 * MB, reserveBytes: 0 }, 0)).toBe(0);
    expect(kernelsThatFit({ availableBytes: 1e12, perKernelBytes: 0, reserveBytes: 0 }, 0)).toBe(0);
  });
});
