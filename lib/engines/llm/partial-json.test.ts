import { describe, expect, it } from "vitest";
import { partialJsonStrings } from "./partial-json";

const read = (src: string) => Object.fromEntries(partialJsonStrings(src));

describe("partialJsonStrings", () => {
  it("reads a string field cut off mid-value", () => {
    expect(read('{"thinking": "I will thr')).toEqual({ thinking: "I will thr" });
  });

  it("reads finished fields and the one being written", () => {
    expect(read('{"thinking": "Look first.", "code": "import cv2\\nimg = load')).toEqual({ thinking: "Look first.", code: "import cv2\nimg = load" });
  });

  it("gives exactly JSON.parse's strings once the object is complete", () => {
    const args = { thinking: 'Say "hi" \\ then\ttab', code: "print('é', \"x\")\n# ünïcödé 😀\r\n", n: 3, ok: true, none: null };
    const src = JSON.stringify(args);
    expect(read(src)).toEqual({ thinking: args.thinking, code: args.code });
    // Escaped as \u sequences too (what some servers send).
    const ascii = src.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
    expect(read(ascii)).toEqual({ thinking: args.thinking, code: args.code });
  });

  it("decodes every escape", () => {
    expect(read('{"a": "\\n\\t\\r\\b\\f\\"\\\\\\/\\u00e9"}')).toEqual({ a: '\n\t\r\b\f"\\/é' });
  });

  it("holds back an escape cut off at the end", () => {
    expect(read('{"a": "line\\')).toEqual({ a: "line" });
    expect(read('{"a": "caf\\u00')).toEqual({ a: "caf" });
    expect(read('{"a": "caf\\u00e')).toEqual({ a: "caf" });
    expect(read('{"a": "caf\\u00e9')).toEqual({ a: "café" });
  });

  it("holds back half a surrogate pair until its other half arrives", () => {
    expect(read('{"a": "smile \\ud83d')).toEqual({ a: "smile " });
    expect(read('{"a": "smile \\ud83d\\ude00')).toEqual({ a: "smile 😀" });
  });

  it("grows monotonically as the source grows, character by character", () => {
    const src = JSON.stringify({ thinking: 'He said "go"\nnow', code: "x = '\\u00e9' if a < b else {}\n" });
    let last = "";
    for (let n = 0; n <= src.length; n++) {
      const code = partialJsonStrings(src.slice(0, n)).get("code") ?? "";
      expect(code.startsWith(last)).toBe(true);
      last = code;
    }
    expect(last).toBe("x = '\\u00e9' if a < b else {}\n");
  });

  it("knows nothing of a key whose name is still being written", () => {
    expect(read('{"thinking": "done", "co')).toEqual({ thinking: "done" });
    expect(read('{"code"')).toEqual({});
    expect(read('{"code": ')).toEqual({});
  });

  it("reads nested objects, skips arrays' strings, and keeps the first of a repeated key", () => {
    expect(read('{"name": "execute_python", "arguments": {"code": "x=1", "list": ["a", "b"], "code": "later"}}')).toEqual({ name: "execute_python", code: "x=1" });
  });

  it("reads arguments sent as a JSON string", () => {
    expect(read('{"name": "ask_user", "arguments": "{\\"question\\": \\"Which coi')).toMatchObject({ name: "ask_user", question: "Which coi" });
  });

  it("is total: garbage, empty input and deep nesting give what was readable", () => {
    expect(read("")).toEqual({});
    expect(read("not json")).toEqual({});
    expect(read('{"a": "x"} trailing {"b": "y"}')).toEqual({ a: "x" });
    expect(read('{"a": tru')).toEqual({});
    expect(read('{"a": }')).toEqual({});
    expect(read('{"a" "b"}')).toEqual({});
    expect(read("[".repeat(10_000))).toEqual({});
    expect(read(`${'{"k": '.repeat(100)}"deep"`)).toEqual({});
  });
});
