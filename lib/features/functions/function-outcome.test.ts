import { describe, expect, it } from "vitest";
import type { Execution } from "@/lib/foundation/protocol/contexts";
import { cellFailure, chunkCell, codePoints, outcomeOrder, overCaps, parseOutcome, RESULT_MIME, stagedInputName } from "./function-outcome";

const execution = (over: Partial<Execution>): Execution => ({ results: [], stdout: "", stderr: "", error: null, ...over });
const caps = { maxOutputChars: 1000, maxResultChars: 1000 };
const published = (outcome: unknown): Execution["results"][number] => ({ data: { [RESULT_MIME]: JSON.stringify(outcome), "text/plain": "<argus function result>" }, isMain: false, viewed: false });

describe("cellFailure", () => {
  it("turns a timed-out cell into a timeout with the wall time", () => {
    const out = cellFailure(execution({ stdout: "partial", error: { name: "TimeoutError", value: "The cell ran longer than 2 s and was stopped.", traceback: "" } }), 2.1);
    expect(out).toEqual({ result: null, stdout: "partial", seconds: 2.1, saved: [], error: { kind: "timeout", message: "The cell ran longer than 2 s and was stopped." } });
  });

  it("turns a dead kernel into crashed, and a cancel into cancelled", () => {
    expect(cellFailure(execution({ error: { name: "KernelDied", value: "The kernel died", traceback: "" } }), 1).error.kind).toBe("crashed");
    expect(cellFailure(execution({ error: { name: "Cancelled", value: "cancelled", traceback: "" } }), 1).error.kind).toBe("cancelled");
  });

  it("never reports success for a cell that published nothing", () => {
    expect(cellFailure(execution({}), 1).error).toEqual({ kind: "crashed", message: "The function ended without reporting a result." });
  });
});

describe("against a function forging its outcomes", () => {
  it("takes only the running item's outcome, in order", () => {
    expect(outcomeOrder(0, 0, 3)).toEqual({ kind: "take" });
    expect(outcomeOrder(2, 2, 3)).toEqual({ kind: "take" });
  });

  it("blames the running item for an outcome ahead of it, and an earlier one for a repeat", () => {
    expect(outcomeOrder(1, 2, 3)).toEqual({ kind: "tampered", blame: 1 });
    // Item 2 running, a second outcome for item 0 arrives: 0's first one may have been forged.
    expect(outcomeOrder(2, 0, 3)).toEqual({ kind: "tampered", blame: 0 });
    // Every outcome came, then another: the last item's is in doubt (or the repeated one's).
    expect(outcomeOrder(1, 0, 1)).toEqual({ kind: "tampered", blame: 0 });
    expect(outcomeOrder(3, 7, 3)).toEqual({ kind: "tampered", blame: 2 });
    expect(outcomeOrder(0, -5, 3)).toEqual({ kind: "tampered", blame: 0 });
  });

  it("holds the result and output caps on what arrived", () => {
    expect(overCaps({ stdout: "", result: "x".repeat(998) }, caps)).toBeNull();
    expect(overCaps({ stdout: "", result: "x".repeat(1001) }, caps)?.kind).toBe("output_too_large");
    expect(overCaps({ stdout: "y".repeat(1001), result: 1 }, caps)?.kind).toBe("output_too_large");
    expect(overCaps({ stdout: "y".repeat(1000), result: null }, caps)).toBeNull();
  });

  it("counts printed characters as Python does, so a capped kernel stream of emoji passes", () => {
    expect(codePoints("😀".repeat(1000))).toBe(1000);
    expect(overCaps({ stdout: "😀".repeat(1000), result: null }, caps)).toBeNull();
    expect(overCaps({ stdout: "😀".repeat(1001), result: null }, caps)?.kind).toBe("output_too_large");
  });
});

describe("parseOutcome", () => {
  it("reads an outcome published as an object or as JSON text, with its place in the chunk", () => {
    const outcome = { index: 3, result: [1], stdout: "", seconds: 0.1, error: null, saved: [".argus-saved/3-o.png"] };
    expect(parseOutcome(outcome, 9)).toEqual(outcome);
    expect(parseOutcome(JSON.stringify(outcome), 9)).toEqual(outcome);
  });

  it("distrusts what the kernel sent: no index is 0, a fractional one too, an unknown kind is raised, junk is null", () => {
    expect(parseOutcome({ result: 1 }, 2)).toMatchObject({ index: 0, seconds: 2, saved: [], error: null });
    expect(parseOutcome({ index: 1.5 }, 2)?.index).toBe(0);
    expect(parseOutcome({ index: 0, error: { kind: "bad_input", message: "m" } }, 1)?.error?.kind).toBe("bad_input");
    expect(parseOutcome({ index: 0, error: { kind: "timeout", message: "m" } }, 1)?.error?.kind).toBe("raised");
    expect(parseOutcome("{not json", 1)).toBeNull();
    expect(parseOutcome(null, 1)).toBeNull();
  });
});

describe("chunkCell", () => {
  it("passes code, name and the items as Python literals, caps as integers", () => {
    const code = 'def f(p):\n    return "a\\"b"\n';
    const cell = chunkCell(code, "f", [[stagedInputName(0), "it's.png"], ["", ""]], { maxOutputChars: 100.7, maxResultChars: 5000 });
    expect(cell).toContain(JSON.stringify(code));
    expect(cell).toContain(`[[".argus-input-0","it's.png"],["",""]], 100, 5000);`);
  });
});
