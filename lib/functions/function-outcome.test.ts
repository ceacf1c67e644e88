import { describe, expect, it } from "vitest";
import type { Execution } from "@/lib/protocol/contexts";
import { callCell, readOutcome, RESULT_MIME } from "./function-outcome";

const execution = (over: Partial<Execution>): Execution => ({ results: [], stdout: "", stderr: "", error: null, ...over });
const caps = { maxOutputChars: 1000, maxResultChars: 1000 };
const published = (outcome: unknown): Execution["results"][number] => ({ data: { [RESULT_MIME]: JSON.stringify(outcome), "text/plain": "<argus function result>" }, isMain: false, viewed: false });

describe("readOutcome", () => {
  it("reads the published result", () => {
    const out = readOutcome(execution({ results: [published({ result: { count: 7 }, stdout: "hi\n", seconds: 0.25, error: null, saved: ["overlay.png", 3] })] }), 3, caps);
    expect(out).toEqual({ result: { count: 7 }, stdout: "hi\n", seconds: 0.25, error: null, saved: ["overlay.png"] });
  });

  it("keeps the kernel's error kinds and maps unknown ones to raised", () => {
    const big = readOutcome(execution({ results: [published({ result: null, stdout: "x", seconds: 1, error: { kind: "output_too_large", message: "too much" } })] }), 1, caps);
    expect(big.error).toEqual({ kind: "output_too_large", message: "too much" });
    const odd = readOutcome(execution({ results: [published({ result: null, stdout: "", seconds: 1, error: { kind: "weird", message: "m" } })] }), 1, caps);
    expect(odd.error?.kind).toBe("raised");
  });

  it("turns a timed-out cell into a timeout with the wall time", () => {
    const out = readOutcome(execution({ stdout: "partial", error: { name: "TimeoutError", value: "The cell ran longer than 2 s and was stopped.", traceback: "" } }), 2.1, caps);
    expect(out).toEqual({ result: null, stdout: "partial", seconds: 2.1, saved: [], error: { kind: "timeout", message: "The cell ran longer than 2 s and was stopped." } });
  });

  it("turns a dead kernel into crashed, and a cancel into cancelled", () => {
    expect(readOutcome(execution({ error: { name: "KernelDied", value: "The kernel died", traceback: "" } }), 1, caps).error?.kind).toBe("crashed");
    expect(readOutcome(execution({ error: { name: "Cancelled", value: "cancelled", traceback: "" } }), 1, caps).error?.kind).toBe("cancelled");
  });

  it("never reports success without a published result", () => {
    expect(readOutcome(execution({}), 1, caps).error?.kind).toBe("crashed");
    expect(readOutcome(execution({ results: [{ data: { [RESULT_MIME]: "{not json" }, isMain: false, viewed: false }] }), 1, caps).error?.kind).toBe("crashed");
  });
});

describe("readOutcome against a function forging its outcome", () => {
  const ok = { result: "fine", stdout: "", seconds: 0.1, error: null, saved: [] };
  it("lets the cell's own timeout, cancel or death win over an outcome published before it", () => {
    const timedOut = readOutcome(execution({ results: [published(ok)], error: { name: "TimeoutError", value: "stopped", traceback: "" } }), 2, caps);
    expect(timedOut).toMatchObject({ result: null, error: { kind: "timeout" } });
    expect(readOutcome(execution({ results: [published(ok)], error: { name: "KernelDied", value: "died", traceback: "" } }), 1, caps).error?.kind).toBe("crashed");
  });

  it("refuses a call that published more than one outcome", () => {
    const out = readOutcome(execution({ results: [published(ok), published({ ...ok, result: "real" })] }), 1, caps);
    expect(out).toMatchObject({ result: null, error: { kind: "raised" } });
  });

  it("holds the result and output caps on what arrived", () => {
    const big = readOutcome(execution({ results: [published({ ...ok, result: "x".repeat(1001) })] }), 1, caps);
    expect(big).toMatchObject({ result: null, error: { kind: "output_too_large" } });
    const loud = readOutcome(execution({ results: [published({ ...ok, stdout: "y".repeat(1001) })] }), 1, caps);
    expect(loud).toMatchObject({ result: null, error: { kind: "output_too_large" } });
    expect(loud.stdout).toHaveLength(1000);
    const huge = readOutcome(execution({ results: [published({ ...ok, result: "z".repeat(200_000) })] }), 1, caps);
    expect(huge.error?.kind).toBe("output_too_large");
  });

  it("counts printed characters as Python does, so a capped kernel stream of emoji passes", () => {
    const out = readOutcome(execution({ results: [published({ ...ok, stdout: "😀".repeat(1000) })] }), 1, caps);
    expect(out.error).toBeNull();
  });
});

describe("callCell", () => {
  it("passes code, name and path as Python string literals", () => {
    const cell = callCell('def f(p):\n    return "a\\"b"\n', "f", "it's.png", { maxOutputChars: 100.7, maxResultChars: 5000 });
    expect(cell).toContain(JSON.stringify('def f(p):\n    return "a\\"b"\n'));
    expect(cell).toContain('"it\'s.png", 100, 5000);');
  });
});
