import { describe, expect, it } from "vitest";
import { runAnswer } from "./run-answer";

describe("runAnswer", () => {
  it("answers a result with image urls, the function's own time and the time spent waiting around it", () => {
    const answer = runAnswer(2, { result: { count: 3 }, stdout: "ok\n", images: [{ fileId: "f", url: "/api/files/f", name: "o.png" }], seconds: 0.5 }, 0.8);
    expect(answer).toEqual({ status: 200, body: { result: { count: 3 }, stdout: "ok\n", images: ["/api/files/f"], seconds: 0.5, waited_seconds: 0.3, version: 2 } });
  });

  it("says honestly that a first call waited 32 s for its kernel when the function took 0.74 s", () => {
    expect(runAnswer(1, { result: 1, stdout: "", images: [], seconds: 0.74 }, 33.1234).body).toMatchObject({ seconds: 0.74, waited_seconds: 32.38 });
  });

  it("never reports a negative wait (the kernel's clock and the server's differ)", () => {
    expect(runAnswer(1, { result: 1, stdout: "", images: [], seconds: 2 }, 1.99).body).toMatchObject({ seconds: 2, waited_seconds: 0 });
  });

  it("answers a failed call with 422, its kind, what it printed and its times", () => {
    const answer = runAnswer(1, { result: null, stdout: "partial", images: [], seconds: 2, error: { kind: "timeout", message: "ran too long" } }, 5);
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ error: { code: "unprocessable:function", message: "ran too long", kind: "timeout" }, stdout: "partial", seconds: 2, waited_seconds: 3 });
  });
});
