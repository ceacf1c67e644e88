import { describe, expect, it } from "vitest";
import { runAnswer } from "./run-answer";

describe("runAnswer", () => {
  it("answers a result with image urls", () => {
    const answer = runAnswer(2, { result: { count: 3 }, stdout: "ok\n", images: [{ fileId: "f", url: "/api/files/f", name: "o.png" }], seconds: 0.5 });
    expect(answer).toEqual({ status: 200, body: { result: { count: 3 }, stdout: "ok\n", images: ["/api/files/f"], seconds: 0.5, version: 2 } });
  });

  it("answers a failed call with 422, its kind and what it printed", () => {
    const answer = runAnswer(1, { result: null, stdout: "partial", images: [], seconds: 2, error: { kind: "timeout", message: "ran too long" } });
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ error: { code: "unprocessable:function", message: "ran too long", kind: "timeout" }, stdout: "partial" });
  });
});
