import { describe, expect, it } from "vitest";
import { parseFinalCode, parseInteraction, parsePlan, parseStep } from "./message-content";

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

  it("reads a browser safety card with its options and payload", () => {
    const payload = { action: "type(x)", url: "http://lab/", checks: [{ code: "password_field", message: "m", source: "policy" }], screenshot: null, pointer: null, viewport: [800, 600] };
    const body = { kind: "safety", prompt: "Type into the password field?", options: ["Confirm", "Refuse"], payload };
    expect(parseInteraction(`<interaction>${JSON.stringify(body)}</interaction>`)).toEqual(body);
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
