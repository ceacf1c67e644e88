import { describe, expect, it } from "vitest";
import { boxPercent, describeAnswer, openingChoice, parseToolReview, toolReviewAnswer, toolReviewChoice, visibleDetections } from "./tool-review";

describe("parseToolReview", () => {
  const payload = {
    image: "/api/files/img1",
    width: 640,
    height: 480,
    candidates: [
      { function_name: "owlv2_object_detection", args: { prompt: "coin", box_threshold: 0.1 }, detections: [{ label: "coin", score: 0.9, bbox: [10, 20, 110, 220] }] },
      { function_name: "countgd", args: {}, detections: [{ label: "coin", score: 0.4, bbox: [300, 200, 100, 100] }, { label: "bad", bbox: [1, 2] }] },
      { args: {}, detections: [] },
    ],
  };

  it("reads candidates, normalises corners and drops invalid detections", () => {
    const r = parseToolReview(payload);
    expect(r?.width).toBe(640);
    expect(r?.candidates.map((c) => c.functionName)).toEqual(["owlv2_object_detection", "countgd"]);
    expect(r?.candidates[1]?.detections).toEqual([{ label: "coin", score: 0.4, bbox: [100, 100, 300, 200] }]);
  });

  it("is null without an image, with an unsafe image URL, or without candidates", () => {
    expect(parseToolReview({ ...payload, image: undefined })).toBeNull();
    expect(parseToolReview({ ...payload, image: "javascript:alert(1)" })).toBeNull();
    expect(parseToolReview({ ...payload, image: "//evil.example/x.png" })).toBeNull();
    expect(parseToolReview({ ...payload, candidates: [] })).toBeNull();
    expect(parseToolReview(null)).toBeNull();
    expect(parseToolReview("x")).toBeNull();
  });

  it("leaves a missing or bad size to the image's natural size", () => {
    const r = parseToolReview({ ...payload, width: 0, height: "480" });
    expect([r?.width, r?.height]).toEqual([null, null]);
  });

  it("filters by threshold inclusively and scales boxes to percentages", () => {
    const d = parseToolReview(payload)!.candidates.flatMap((c) => c.detections);
    expect(visibleDetections(d, 0.4).length).toBe(2);
    expect(visibleDetections(d, 0.41).length).toBe(1);
    expect(boxPercent([64, 48, 320, 240], 640, 480)).toEqual({ left: 10, top: 10, width: 40, height: 40 });
    expect(boxPercent([-10, 0, 700, 480], 640, 480)).toEqual({ left: 0, top: 0, width: 100, height: 100 });
  });
});

describe("answers", () => {
  it("makes and reads back a tool-review choice, and describes it in words", () => {
    const choice = toolReviewChoice("owlv2", 0.30000000000000004);
    expect(choice).toEqual({ kind: "tool_review", function_name: "owlv2", box_threshold: 0.3 });
    expect(toolReviewAnswer({ text: "", choice })).toEqual({ functionName: "owlv2", boxThreshold: 0.3 });
    expect(describeAnswer({ text: "", choice })).toBe("owlv2 (confidence ≥ 0.30)");
  });

  it("reads words as words, even words that look like the card's JSON", () => {
    const json = JSON.stringify({ function_name: "owlv2", box_threshold: 0.3 });
    expect(toolReviewAnswer({ text: json })).toBeNull();
    expect(describeAnswer({ text: json })).toBe(json);
    expect(describeAnswer({ text: "only the gold ones" })).toBe("only the gold ones");
    expect(toolReviewAnswer(null)).toBeNull();
  });
});

describe("openingChoice", () => {
  const candidates = [
    { function_name: "detect_circles", args: { box_threshold: 0.05 }, detections: [] },
    { function_name: "count_objects", args: { box_threshold: 0.05 }, detections: [] },
  ];
  const review = (suggested: unknown) => parseToolReview({ image: "/api/files/x", candidates, suggested })!;

  it("opens on the judge's pick at its threshold, not on the first tab", () => {
    expect(openingChoice(review({ function_name: "count_objects", box_threshold: 0.5 }), null)).toEqual({ index: 1, threshold: 0.5 });
  });

  it("takes the candidate's own threshold when the suggestion has none usable", () => {
    expect(openingChoice(review({ function_name: "count_objects", box_threshold: 7 }), null)).toEqual({ index: 1, threshold: 0.05 });
  });

  it("ignores a suggestion naming no candidate, and falls back to the first tab", () => {
    const r = review({ function_name: "rm_rf", box_threshold: 0.9 });
    expect(r.suggested).toBeNull();
    expect(openingChoice(r, null)).toEqual({ index: 0, threshold: 0.05 });
    expect(openingChoice(review(undefined), null)).toEqual({ index: 0, threshold: 0.05 });
  });

  it("reopens on the answer already given", () => {
    expect(openingChoice(review({ function_name: "count_objects", box_threshold: 0.5 }), { functionName: "detect_circles", boxThreshold: 0.3 })).toEqual({ index: 0, threshold: 0.3 });
  });
});
