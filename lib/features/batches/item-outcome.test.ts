import { describe, expect, it } from "vitest";
import { endedBadly, itemOutcome, STDOUT_EXCERPT_CHARS } from "./item-outcome";

const ok = { result: { n: 3 }, stdout: "hello", images: [], seconds: 0.5 };

describe("itemOutcome", () => {
  it("records a finished call as done with its result and first image", () => {
    const out = itemOutcome({ ...ok, images: [{ fileId: "f1", url: "/f1", name: "a.png" }, { fileId: "f2", url: "/f2", name: "b.png" }] });
    expect(out).toEqual({ status: "done", result: { n: 3 }, stdout: "hello", seconds: 0.5, error: null, overlayFileId: "f1" });
  });

  it("keeps only the head of what was printed, and nothing for silence", () => {
    expect(itemOutcome({ ...ok, stdout: "x".repeat(STDOUT_EXCERPT_CHARS + 50) }).stdout).toHaveLength(STDOUT_EXCERPT_CHARS);
    expect(itemOutcome({ ...ok, stdout: "" }).stdout).toBeNull();
  });

  it("records an error as failed with its message, and drops the result", () => {
    const out = itemOutcome({ ...ok, error: { kind: "timeout", message: "It ran past 60 s." } });
    expect(out).toMatchObject({ status: "failed", result: null, error: "It ran past 60 s." });
  });

  it("records a cancelled call as cancelled in plain words", () => {
    expect(itemOutcome({ ...ok, error: { kind: "cancelled", message: "aborted" } })).toMatchObject({ status: "cancelled", error: "Cancelled while it ran." });
  });
});

describe("endedBadly", () => {
  it("is true only for endings that replace the kernel", () => {
    expect(endedBadly(ok)).toBe(false);
    for (const kind of ["timeout", "crashed", "output_too_large", "cancelled"] as const) expect(endedBadly({ ...ok, error: { kind, message: "" } })).toBe(true);
    expect(endedBadly({ ...ok, error: { kind: "raised", message: "ValueError" } })).toBe(false);
  });
});
