import { describe, expect, it } from "vitest";
import { buildCandidateRunner, candidateResult, RESULTS_MARKER, TryToolsReportSchema } from "./tool-runner";

describe("candidateResult", () => {
  it("takes the boxes and count of the first image's run", () => {
    const tried = TryToolsReportSchema.parse({
      detect_circles: { runs: [{ image: 0, seconds: 0.2, count: 2, output: ["…"], boxes: [{ label: "circle", score: 0.9, bbox: [1, 2, 3, 4] }, { label: "circle", score: 0.4, bbox: [5, 6, 7, 8] }] }] },
    });
    expect(candidateResult(tried.detect_circles)).toEqual({ count: 2, detections: [{ label: "circle", score: 0.9, bbox: [1, 2, 3, 4] }, { label: "circle", score: 0.4, bbox: [5, 6, 7, 8] }], seconds: 0.2 });
  });

  it("summarises an output without boxes instead of dropping it", () => {
    expect(candidateResult({ runs: [{ seconds: 0.1, count: null, output: { text: "STOP" } }] })).toEqual({ count: 0, detections: [], summary: '{"text":"STOP"}', seconds: 0.1 });
  });

  it("reports unknown, skipped, failed and missing tools as errors", () => {
    expect(candidateResult({ error: `unknown tool 'x'; known: ${"a, ".repeat(200)}` }).error!.length).toBeLessThanOrEqual(200);
    expect(candidateResult({ skipped: "needs prompt (a question)" })).toMatchObject({ count: 0, error: "needs prompt (a question)" });
    expect(candidateResult({ runs: [{ error: "took longer than 20 s", seconds: 20 }] })).toMatchObject({ error: "took longer than 20 s", seconds: 20 });
    expect(candidateResult(undefined)).toMatchObject({ error: "no result" });
  });
});

describe("buildCandidateRunner", () => {
  it("calls the kernel package's try_tools with every value as a JSON literal", () => {
    const code = buildCandidateRunner(["detect_circles", "count_objects"], "task-image-0.png", 0.05, 20);
    expect(code).toContain("from argus.tools import try_tools");
    expect(code).toContain(RESULTS_MARKER.trim());
    expect(code).toContain('\\"candidates\\":[\\"detect_circles\\",\\"count_objects\\"]');
  });

  it("refuses a path that is not a plain workspace name", () => {
    expect(() => buildCandidateRunner(["a"], "../x.png", 0.05, 20)).toThrow(/not a workspace image path/);
    expect(() => buildCandidateRunner(["a"], "x.png'); import os #", 0.05, 20)).toThrow();
  });
});
