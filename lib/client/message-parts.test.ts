import { describe, expect, it } from "vitest";
import type { AgentMessageRole, StreamedMessage } from "@/lib/protocol/agent-message";
import {
  boxPercent,
  classifyLink,
  cleanTerminalText,
  describeAnswer,
  groupMessages,
  isSafeImageUrl,
  lastUnansweredInteractionSeq,
  parseFinalCode,
  parseInteraction,
  parseObservation,
  parsePlan,
  parseStep,
  parseToolReview,
  parseToolReviewAnswer,
  visibleDetections,
  type DisplayItem,
} from "./message-parts";

// The exact forms lib/runtime/projection.ts produces.
const cell = (thought: string, code: string) => {
  const c = `<execute_python>\n${code}\n</execute_python>`;
  return thought ? `<thinking>${thought}</thinking>\n${c}` : c;
};

describe("parseStep", () => {
  it("reads thinking and code in the projection's form", () => {
    expect(parseStep(cell("Count the coins.", "import cv2\nprint(1)"))).toEqual({ thinking: "Count the coins.", code: "import cv2\nprint(1)" });
  });

  it("has empty thinking when the step has none", () => {
    expect(parseStep(cell("", "x = 1"))).toEqual({ thinking: "", code: "x = 1" });
  });

  it("keeps code that mentions the closing tag in a string", () => {
    const code = 's = "</execute_python>"\nprint(s)';
    expect(parseStep(cell("t", code)).code).toBe(code);
  });

  it("keeps code indentation and inner blank lines", () => {
    const code = "def f():\n\n    return 1";
    expect(parseStep(cell("", code)).code).toBe(code);
  });

  it("shows a cut-off step instead of dropping it", () => {
    expect(parseStep("<thinking>half a thou")).toEqual({ thinking: "half a thou", code: "" });
    expect(parseStep("<execute_python>\nprint(1")).toEqual({ thinking: "", code: "print(1" });
  });

  it("returns empty fields for text without tags", () => {
    expect(parseStep("just words")).toEqual({ thinking: "", code: "" });
  });
});

describe("parseFinalCode", () => {
  it("reads the coder's final code and test", () => {
    const content = "<final_code>def count(p):\n    return 3</final_code>\n<final_test>assert count('a') == 3</final_test>";
    expect(parseFinalCode(content)).toEqual({ code: "def count(p):\n    return 3", test: "assert count('a') == 3" });
  });

  it("tolerates a missing test and empty code", () => {
    expect(parseFinalCode("<final_code>x = 1</final_code>")).toEqual({ code: "x = 1", test: "" });
    expect(parseFinalCode("<final_code></final_code>\n<final_test></final_test>")).toEqual({ code: "", test: "" });
  });

  it("is null without the tag", () => {
    expect(parseFinalCode("<plan>{}</plan>")).toBeNull();
    expect(parseFinalCode("")).toBeNull();
  });
});

describe("parsePlan", () => {
  const outputs = { plan: "Count coins with Hough circles", instructions: ["load", "detect"], code: "def f(): ..." };

  it("reads the planner's JSON plan", () => {
    expect(parsePlan(`<plan>${JSON.stringify(outputs)}</plan>`)).toEqual(outputs);
  });

  it("fills missing fields and drops non-string instructions", () => {
    expect(parsePlan('<plan>{"instructions": ["a", 3, null, "b"]}</plan>')).toEqual({ plan: "", instructions: ["a", "b"], code: "" });
  });

  it("accepts instructions given as one string of lines", () => {
    expect(parsePlan('<plan>{"plan": "p", "instructions": "one\\n two\\n\\n"}</plan>')?.instructions).toEqual(["one", "two"]);
  });

  it("is null for malformed JSON, non-objects and a missing tag", () => {
    expect(parsePlan("<plan>{not json</plan>")).toBeNull();
    expect(parsePlan("<plan>[1, 2]</plan>")).toBeNull();
    expect(parsePlan("<plan>null</plan>")).toBeNull();
    expect(parsePlan("no plan")).toBeNull();
  });
});

describe("parseInteraction", () => {
  it("reads a question", () => {
    const body = { kind: "question", prompt: "Which coins?", options: ["all", "gold"] };
    expect(parseInteraction(`<interaction>${JSON.stringify(body)}</interaction>`)).toEqual({ ...body, payload: null });
  });

  it("keeps a tool review's payload", () => {
    const payload = { image: "/api/files/a", candidates: [] };
    expect(parseInteraction(`<interaction>${JSON.stringify({ kind: "tool_review", prompt: "Pick", options: [], payload })}</interaction>`)?.payload).toEqual(payload);
  });

  it("never throws on malformed input", () => {
    for (const bad of ["", "<interaction>", "<interaction>{</interaction>", "<interaction>42</interaction>", '<interaction>{"kind": "dance"}</interaction>', '<interaction>{"prompt": "no kind"}</interaction>']) {
      expect(parseInteraction(bad)).toBeNull();
    }
  });

  it("defaults a missing prompt and filters options", () => {
    expect(parseInteraction('<interaction>{"kind": "question", "options": ["a", 1]}</interaction>')).toEqual({ kind: "question", prompt: "", options: ["a"], payload: null });
  });
});

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
  it("reads and describes a tool-review answer", () => {
    const text = JSON.stringify({ function_name: "owlv2", box_threshold: 0.3 });
    expect(parseToolReviewAnswer(text)).toEqual({ functionName: "owlv2", boxThreshold: 0.3 });
    expect(describeAnswer(text)).toBe("owlv2 (confidence ≥ 0.30)");
  });

  it("describes plain text as itself", () => {
    expect(describeAnswer("only the gold ones")).toBe("only the gold ones");
    expect(describeAnswer('{"function_name": 1}')).toBe('{"function_name": 1}');
  });
});

describe("parseObservation", () => {
  it("splits execution text into sections", () => {
    const text = "----- stdout -----\n3 coins\ndone\n----- stderr -----\nwarn\n----- value -----\n3\n----- images -----\n1 image(s) displayed\n----- error -----\nTraceback:\nValueError: x";
    expect(parseObservation(text)).toEqual({ stdout: "3 coins\ndone", stderr: "warn", value: "3", images: "1 image(s) displayed", error: "Traceback:\nValueError: x", other: "" });
  });

  it("keeps text outside sections as other", () => {
    expect(parseObservation("(the cell ran without output)")).toMatchObject({ stdout: "", other: "(the cell ran without output)" });
  });

  it("keeps leading indentation of the first output line", () => {
    expect(parseObservation("----- stdout -----\n  indented\n").stdout).toBe("  indented");
  });

  it("strips colour codes and collapses carriage-return redraws", () => {
    expect(cleanTerminalText("\u001b[31mred\u001b[0m")).toBe("red");
    expect(cleanTerminalText(" 10%|#\r 50%|#####\r100%|##########\nnext\r\n")).toBe("100%|##########\nnext\n");
    expect(parseObservation("----- error -----\n\u001b[0;31mZeroDivisionError\u001b[0m").error).toBe("ZeroDivisionError");
  });
});

describe("classifyLink", () => {
  it("opens http(s) externally", () => {
    expect(classifyLink("https://example.com/a")).toEqual({ kind: "external", href: "https://example.com/a" });
    expect(classifyLink("HTTP://example.com")).toMatchObject({ kind: "external" });
  });

  it("keeps same-origin paths, fragments and mailto as ordinary links", () => {
    for (const h of ["/api/files/1", "#x", "?a=1", "notes.txt", "mailto:a@b.c", "a/b:c"]) expect(classifyLink(h).kind).toBe("internal");
  });

  it("makes dangerous or unknown schemes inert", () => {
    for (const h of ["javascript:alert(1)", " JavaScript:alert(1)", "data:text/html,x", "vbscript:x", "//evil.example", "\\\\evil", "", null, undefined]) {
      expect(classifyLink(h).kind).toBe("inert");
    }
  });

  it("allows images from this server and http(s) only", () => {
    expect(isSafeImageUrl("/api/files/1")).toBe(true);
    expect(isSafeImageUrl("https://x.example/a.png")).toBe(true);
    expect(isSafeImageUrl("mailto:a@b.c")).toBe(false);
    expect(isSafeImageUrl("data:image/png;base64,AAAA")).toBe(false);
  });
});

describe("groupMessages", () => {
  let seq = 0;
  const msg = (role: AgentMessageRole, content = "", extra: Partial<StreamedMessage> = {}): StreamedMessage => ({
    seq: ++seq,
    runId: "r1",
    ts: "2025-01-01T00:00:00Z",
    role,
    content,
    ...extra,
  });
  const kinds = (items: DisplayItem[]) => items.map((i) => i.kind);

  it("pairs each step with the observation that follows and numbers turns per agent and run", () => {
    seq = 0;
    const msgs = [
      msg("user", "count coins"),
      msg("planner", cell("look", "print(1)")),
      msg("observation", "----- stdout -----\n1", { media: ["/api/files/p1"] }),
      msg("planner", cell("again", "print(2)")),
      msg("observation", "----- stdout -----\n2"),
      msg("planner", `<plan>${JSON.stringify({ plan: "p", instructions: [], code: "" })}</plan>`),
      msg("coder", cell("", "test()")),
      msg("observation", "ok"),
      msg("coder", "<final_code>f</final_code>\n<final_test>t</final_test>"),
      msg("final_observation", "done"),
    ];
    const items = groupMessages(msgs);
    expect(kinds(items)).toEqual(["message", "turn", "turn", "plan", "turn", "final_code", "message"]);
    const turns = items.filter((i) => i.kind === "turn");
    expect(turns.map((t) => [t.agent, t.index, t.observation?.seq])).toEqual([
      ["planner", 1, 3],
      ["planner", 2, 5],
      ["coder", 1, 8],
    ]);
    expect(items.map((i) => i.key)).toEqual(["seq-1", "seq-2", "seq-4", "seq-6", "seq-7", "seq-9", "seq-10"]);
  });

  it("keeps a turn's key when its observation arrives later (stable keys)", () => {
    seq = 0;
    const step = msg("planner", cell("t", "x"));
    const before = groupMessages([step]);
    expect(before[0]).toMatchObject({ kind: "turn", key: "seq-1", observation: null });
    const after = groupMessages([step, msg("observation", "o")]);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ kind: "turn", key: "seq-1", observation: { seq: 2 } });
  });

  it("pairs only an observation that directly follows, keeping the transcript in seq order", () => {
    seq = 0;
    const items = groupMessages([msg("planner", cell("", "a")), msg("user", "meanwhile"), msg("observation", "o")]);
    expect(kinds(items)).toEqual(["turn", "message", "message"]);
    expect(items[0]).toMatchObject({ observation: null });
  });

  it("restarts turn numbers in a new run and never pairs across runs", () => {
    seq = 0;
    const items = groupMessages([
      msg("planner", cell("", "a"), { runId: "r1" }),
      msg("observation", "o", { runId: "r2" }),
      msg("planner", cell("", "b"), { runId: "r2" }),
    ]);
    expect(kinds(items)).toEqual(["turn", "message", "turn"]);
    expect(items.map((i) => (i.kind === "turn" ? i.index : 0))).toEqual([1, 0, 1]);
  });

  it("does not give a step an observation from after an error or another step", () => {
    seq = 0;
    const items = groupMessages([msg("planner", cell("", "a")), msg("error_observation", "kernel died"), msg("observation", "late")]);
    expect(kinds(items)).toEqual(["turn", "error", "message"]);
    expect(items[0]).toMatchObject({ observation: null });
  });

  it("shows planner/coder notes (task lists) as plain messages", () => {
    seq = 0;
    const items = groupMessages([msg("planner", "Task list:\n- [ ] count"), msg("observation", "stray")]);
    expect(kinds(items)).toEqual(["message", "message"]);
  });

  it("attaches each answer to the interaction it answers and hides it from the list", () => {
    seq = 0;
    const q = '<interaction>{"kind":"question","prompt":"?","options":[]}</interaction>';
    const items = groupMessages([msg("interaction", q), msg("interaction_response", "yes"), msg("interaction", q)]);
    expect(kinds(items)).toEqual(["interaction", "interaction"]);
    expect(items[0]).toMatchObject({ response: { seq: 2, content: "yes" }, responseInline: true });
    expect(items[1]).toMatchObject({ response: null });
    expect(lastUnansweredInteractionSeq(items)).toBe(3);
  });

  it("gives an answer to the newest open interaction; a lone answer stays a message", () => {
    seq = 0;
    const q = '<interaction>{"kind":"question","prompt":"?","options":[]}</interaction>';
    const items = groupMessages([msg("interaction_response", "orphan"), msg("interaction", q), msg("interaction", q), msg("interaction_response", "a")]);
    expect(kinds(items)).toEqual(["message", "interaction", "interaction"]);
    expect(items[1]).toMatchObject({ response: null });
    expect(items[2]).toMatchObject({ response: { content: "a" }, responseInline: true });
    expect(lastUnansweredInteractionSeq(items)).toBeUndefined();
  });

  it("lists an answer separately when messages came between it and its question (still marks it answered)", () => {
    seq = 0;
    const q = '<interaction>{"kind":"question","prompt":"?","options":[]}</interaction>';
    const items = groupMessages([msg("interaction", q), msg("conversation", "note"), msg("interaction_response", "yes")]);
    expect(kinds(items)).toEqual(["interaction", "message", "message"]);
    expect(items[0]).toMatchObject({ response: { seq: 3 }, responseInline: false });
    expect(items.map((i) => i.key)).toEqual(["seq-1", "seq-2", "seq-3"]);
  });

  it("offers Retry on the latest error only, until the person speaks again", () => {
    seq = 0;
    const items = groupMessages([msg("error_observation", "one"), msg("user", "again"), msg("error_observation", "two"), msg("conversation", "sorry")]);
    expect(items.filter((i) => i.kind === "error").map((i) => i.kind === "error" && i.retryable)).toEqual([false, true]);
    const later = groupMessages([msg("error_observation", "x"), msg("user", "new question")]);
    expect(later.some((i) => i.kind === "error" && i.retryable)).toBe(false);
  });

  it("orders by seq and lets a re-sent seq replace the old copy", () => {
    const m = (s: number, content: string): StreamedMessage => ({ seq: s, runId: null, ts: "", role: "user", content });
    const items = groupMessages([m(2, "b"), m(1, "a"), m(2, "b2")]);
    expect(items.map((i) => (i.kind === "message" ? i.message.content : ""))).toEqual(["a", "b2"]);
  });

  it("is empty for no messages", () => {
    expect(groupMessages([])).toEqual([]);
    expect(lastUnansweredInteractionSeq([])).toBeUndefined();
  });
});
