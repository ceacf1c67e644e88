import { describe, expect, it } from "vitest";
import type { Execution } from "@/lib/foundation/protocol/contexts";
import { joinOutputs, splitLargeOutputs, STREAM_RESULT } from "./cell-outputs";

const big = "A".repeat(100);
const execution: Execution = {
  stdout: "hi\n",
  stderr: "",
  error: null,
  results: [
    { data: { "text/plain": "<PIL.Image>", "image/png": big }, isMain: true, viewed: false },
    { data: { "text/plain": "small", "image/png": "iVBOR" }, isMain: false, viewed: true },
  ],
};

describe("cell outputs kept in files", () => {
  it("moves only values over the limit out of the row, and puts them back", () => {
    let n = 0;
    const { stored, files } = splitLargeOutputs(execution, () => `f${n++}`, 50);
    expect(files).toEqual([{ result: 0, mime: "image/png", file: "f0", value: big }]);
    expect(stored.results[0]!.data).toEqual({ "text/plain": "<PIL.Image>", "image/png": "" });
    expect(stored.results[1]).toEqual(execution.results[1]);
    expect(joinOutputs(stored, files, new Map([["f0", big]]))).toEqual(execution);
  });

  it("leaves a small execution as it is", () => {
    const { stored, files } = splitLargeOutputs(execution, () => "x", 1000);
    expect(files).toEqual([]);
    expect(stored).toBe(execution);
  });

  it("says so when a file is missing instead of exporting an empty picture", () => {
    const { stored, files } = splitLargeOutputs(execution, () => "f", 50);
    const joined = joinOutputs(stored, files, new Map([["f", null]]));
    expect(joined.results[0]!.data["image/png"]).toBeUndefined();
    expect(joined.results[0]!.data["text/plain"]).toMatch(/not available/);
  });

  it("moves a long stdout or stderr out of the row too, and puts it back", () => {
    const flood = { ...execution, stdout: "y".repeat(80), stderr: "warn\n" };
    let n = 0;
    const { stored, files } = splitLargeOutputs(flood, () => `f${n++}`, 50);
    expect(files.map(({ result, mime }) => [result, mime])).toEqual([
      [0, "image/png"],
      [STREAM_RESULT, "stdout"],
    ]);
    expect([stored.stdout, stored.stderr]).toEqual(["", "warn\n"]);
    expect(joinOutputs(stored, files, new Map(files.map((f) => [f.file, f.value])))).toEqual(flood);
    expect(joinOutputs(stored, files, new Map()).stdout).toMatch(/stdout is not available/);
  });
});
