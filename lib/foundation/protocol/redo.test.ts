import { describe, expect, it } from "vitest";
import { PostMessageBody } from "./api";
import { supersededBy, supersededRanges } from "./redo";

describe("superseded ranges", () => {
  it("a Regenerate keeps the message and supersedes its answer; an Edit supersedes the message too", () => {
    const ranges = supersededRanges([
      { seq: 5, mark: { kind: "regenerate", from: 2 } },
      { seq: 9, mark: { kind: "continue", from: null } },
      { seq: 12, mark: { kind: "edit", from: 7 } },
    ]);
    expect(ranges).toEqual([
      { from: 3, to: 4, by: 5, kind: "regenerate" },
      { from: 7, to: 11, by: 12, kind: "edit" },
    ]);
    expect(supersededBy(2, ranges)).toBeNull();
    expect(supersededBy(4, ranges)?.by).toBe(5);
    expect(supersededBy(9, ranges)?.by).toBe(12);
    expect(supersededBy(12, ranges)).toBeNull();
  });

  it("the outermost range wins when a later Regenerate covers an earlier one", () => {
    const ranges = supersededRanges([
      { seq: 5, mark: { kind: "regenerate", from: 2 } },
      { seq: 8, mark: { kind: "regenerate", from: 2 } },
    ]);
    expect(supersededBy(4, ranges)?.by).toBe(8);
    expect(supersededBy(5, ranges)?.by).toBe(8);
  });
});

describe("a redo request", () => {
  const id = "0b6f8a4e-2c1d-4a8e-9f3b-1d2e3f4a5b6c";
  it("continue and regenerate need no words; an edit does", () => {
    expect(PostMessageBody.safeParse({ role: "user", content: "", redo: { kind: "continue", runId: id } }).success).toBe(true);
    expect(PostMessageBody.safeParse({ role: "user", content: "", redo: { kind: "regenerate", seq: 3 } }).success).toBe(true);
    expect(PostMessageBody.safeParse({ role: "user", content: " ", redo: { kind: "edit", seq: 3 } }).success).toBe(false);
    expect(PostMessageBody.safeParse({ role: "user", content: "better", redo: { kind: "edit", seq: 3 } }).success).toBe(true);
  });

  it("is refused as an answer, or with unknown fields", () => {
    expect(PostMessageBody.safeParse({ role: "interaction_response", content: "", redo: { kind: "continue", runId: id } }).success).toBe(false);
    expect(PostMessageBody.safeParse({ role: "user", content: "", redo: { kind: "continue", runId: "not-a-uuid" } }).success).toBe(false);
    expect(PostMessageBody.safeParse({ role: "user", content: "", redo: { kind: "regenerate", seq: 3, extra: 1 } }).success).toBe(false);
  });
});
