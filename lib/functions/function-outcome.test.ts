import { describe, expect, it } from "vitest";
import type { Execution } from "@/lib/protocol/contexts";
import { chunkCell, parseOutcome, readOutcome, RESULT_MIME, stagedInputName } from "./function-outcome";

const execution = (over: Partial<Execution>): Execution => ({ results: [], stdout: "", stderr: "", error: null, ...over });
const published = (outcome: unknown): Execution["results"][number] => ({ data: { [RESULT_MIME]: JSON.stringify(outcome), "text/plain": "<argus function result>" }, isMain: false, viewed: false });

describe("readOutcome", () => {
  it("reads the published result", () => {
    const out = readOutcome(execution({ results: [published({ result: { count: 7 }, stdout: "hi\n", seconds: 0.25, error: null, saved: ["overlay.png", 3] })] }), 3);
    expect(out).toEqual({ result: { count: 7 }, stdout: "hi\n", seconds: 0.25, error: null, saved: ["overlay.png"] });
  });

  it("keeps the kernel's error kinds and maps unknown ones to raised", () => {
    const big = readOutcome(execution({ results: [published({ result: null, stdout: "x", seconds: 1, error: { kind: "output_too_large", message: "too much" } })] }), 1);
    expect(big.error).toEqual({ kind: "output_too_large", message: "too much" });
    const odd = readOutcome(execution({ results: [published({ result: null, stdout: "", seconds: 1, error: { kind: "weird", message: "m" } })] }), 1);
    expect(odd.error?.kind).toBe("raised");
  });

  it("turns a timed-out cell into a timeout with the wall time", () => {
    const out = readOutcome(execution({ stdout: "partial", error: { name: "TimeoutError", value: "The cell ran longer than 2 s and was stopped.", traceback: "" } }), 2.1);
    expect(out).toEqual({ result: null, stdout: "partial", seconds: 2.1, saved: [], error: { kind: "timeout", message: "The cell ran longer than 2 s and was stopped." } });
  });

  it("turns a dead kernel into crashed, and a cancel into cancelled", () => {
    expect(readOutcome(execution({ error: { name: "KernelDied", value: "The kernel died", traceback: "" } }), 1).error?.kind).toBe("crashed");
    expect(readOutcome(execution({ error: { name: "Cancelled", value: "cancelled", traceback: "" } }), 1).error?.kind).toBe("cancelled");
  });

  it("never reports success without a published result", () => {
    expect(readOutcome(execution({}), 1).error?.kind).toBe("crashed");
    expect(readOutcome(execution({ results: [{ data: { [RESULT_MIME]: "{not json" }, isMain: false, viewed: false }] }), 1).error?.kind).toBe("crashed");
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
