import { describe, expect, it } from "vitest";
import { draftView, EMPTY_DRAFT, type ReplyDraft } from "./draft";

const native = (toolName: string, toolInput: string, more: Partial<ReplyDraft> = {}): ReplyDraft => ({ ...EMPTY_DRAFT, toolName, toolInput, ...more });
/** The tags Argus's agents' tools are drafted by (their `draft` fields; agents/registry.test.ts checks those). */
const TAGS: ReplyDraft["tags"] = {
  execute_python: "code",
  ask_user: "question",
  finalize_plan: null,
  submit_plan: "plan",
  write_code: "code",
  write_test: "test",
  fix_code: null,
  reply: "response",
};
const text = (t: string, more: Partial<ReplyDraft> = {}): ReplyDraft => ({ ...EMPTY_DRAFT, text: t, tags: TAGS, ...more });

/** Every prefix of `full`, as the draft would see it chunk by chunk. */
function prefixes(full: string): string[] {
  return Array.from({ length: full.length + 1 }, (_, n) => full.slice(0, n));
}

describe("draftView: native tool calls (partial JSON arguments)", () => {
  it("shows the thinking while it is being written", () => {
    expect(draftView(native("execute_python", '{"thinking": "I will thr'))).toEqual({ tool: "execute_python", thinking: "I will thr" });
  });

  it("shows <think> written beside the call as thinking, without its tags, while it grows", () => {
    const input = '{"thinking": "Count.", "code": "print(1)"}';
    expect(draftView(native("execute_python", input, { text: "<think>Segment first.</think>\n" }))).toEqual({ tool: "execute_python", thinking: "Segment first.\n\nCount.", code: "print(1)" });
    expect(draftView(native("execute_python", "", { text: "<think>Segm" }))).toEqual({ tool: "execute_python", thinking: "Segm" });
    expect(draftView(native("execute_python", "", { text: "<thi" }))).toEqual({ tool: "execute_python" });
  });

  it("shows the code with escapes decoded", () => {
    const view = draftView(native("execute_python", '{"thinking": "Count.", "code": "img = load_image(\\"coins.png\\")\\nprint(\\u00e9'));
    expect(view).toEqual({ tool: "execute_python", thinking: "Count.", code: 'img = load_image("coins.png")\nprint(é' });
  });

  it("holds back an escape cut off at the end", () => {
    expect(draftView(native("write_code", '{"code": "a\\')).code).toBe("a");
    expect(draftView(native("write_code", '{"code": "a\\u00')).code).toBe("a");
  });

  it("maps each tool's fields: reply, write_test, fix_code's thoughts, submit_plan, ask_user", () => {
    expect(draftView(native("reply", '{"response": "Let me **count**'))).toEqual({ tool: "reply", response: "Let me **count**" });
    expect(draftView(native("write_test", '{"test": "print(count_coins('))).toEqual({ tool: "write_test", test: "print(count_coins(" });
    expect(draftView(native("fix_code", '{"thoughts": "Off by one.", "code": "def f'))).toEqual({ tool: "fix_code", thinking: "Off by one.", code: "def f" });
    expect(draftView(native("submit_plan", '{"plan": "Watershed.", "instructions": ["a", "b"], "code": "def c'))).toEqual({ tool: "submit_plan", plan: "Watershed.", code: "def c" });
    expect(draftView(native("ask_user", '{"thinking": "t", "question": "Which one?", "options": ["A"'))).toEqual({ tool: "ask_user", thinking: "t", question: "Which one?" });
  });

  it("the reasoning stream and text beside the call show as thinking, a repeat left out", () => {
    const view = draftView(native("execute_python", '{"thinking": "Segment the co', { reasoning: "Segment the coins first.", text: "Running it now." }));
    expect(view.thinking).toBe("Segment the coins first.\n\nRunning it now.");
    const different = draftView(native("execute_python", '{"thinking": "Another idea"', { reasoning: "Segment." }));
    expect(different.thinking).toBe("Segment.\n\nAnother idea");
  });

  it("an empty draft, or arguments not yet readable, show nothing", () => {
    expect(draftView(EMPTY_DRAFT)).toEqual({});
    expect(draftView(native("execute_python", ""))).toEqual({ tool: "execute_python" });
    expect(draftView(native("execute_python", '{"thin'))).toEqual({ tool: "execute_python" });
  });

  it("ends with exactly the arguments' strings", () => {
    const args = { thinking: "Look.", code: 'for c in "abc":\n\tprint(c, "\\n", \'é😀\')\n' };
    expect(draftView(native("execute_python", JSON.stringify(args)))).toEqual({ tool: "execute_python", ...args });
  });

  it("grows as the arguments stream in, never showing what it later takes back", () => {
    const full = JSON.stringify({ thinking: 'Say "go"', code: "x = '\\u00e9' if a < b else {}\n" });
    let last = "";
    for (const p of prefixes(full)) {
      const code = draftView(native("execute_python", p)).code ?? "";
      expect(code.startsWith(last)).toBe(true);
      last = code;
    }
    expect(last).toBe("x = '\\u00e9' if a < b else {}\n");
  });
});

describe("draftView: calls written as text (the text protocol)", () => {
  it("thinking and code from partially written tags", () => {
    expect(draftView(text("<thinking>Count the co"))).toEqual({ thinking: "Count the co" });
    expect(draftView(text("<thinking>Count the coins.</thinking>\n<execute_python>\nimport cv2\nimg = lo"))).toEqual({
      tool: "execute_python",
      thinking: "Count the coins.",
      code: "import cv2\nimg = lo",
    });
  });

  it("holds back a tag still being typed", () => {
    expect(draftView(text("<thinking>Count.</thin"))).toEqual({ thinking: "Count." });
    expect(draftView(text("<thinking>Count.</thinking>\n<execute_pyt"))).toEqual({ thinking: "Count." });
    expect(draftView(text("<thinking>Count.</thinking><execute_python>print(1)\n</execute_pyth"))).toMatchObject({ code: "print(1)" });
    expect(draftView(text("<"))).toEqual({});
  });

  it("each tool's tag text fills its field", () => {
    expect(draftView(text("<reply>Hello, I can **count** them"))).toEqual({ tool: "reply", response: "Hello, I can **count** them" });
    expect(draftView(text("<write_code>\ndef count_coins(path):\n"))).toEqual({ tool: "write_code", code: "def count_coins(path):" });
    expect(draftView(text("<write_test>print(count_coins('coins.png'))</write_test>"))).toEqual({ tool: "write_test", test: "print(count_coins('coins.png'))" });
    expect(draftView(text("<ask_user>Which coin"))).toEqual({ tool: "ask_user", question: "Which coin" });
    expect(draftView(text("<thinking>Enough.</thinking><finalize_plan/>"))).toEqual({ tool: "finalize_plan", thinking: "Enough." });
  });

  it("child tags fill their fields", () => {
    expect(draftView(text("<fix_code>\n<thoughts>Wrong path.</thoughts>\n<code>def f():\n    return 1</code>\n<test>print(f(")))
      .toEqual({ tool: "fix_code", thinking: "Wrong path.", code: "def f():\n    return 1", test: "print(f(" });
    expect(draftView(text("<submit_plan>\n<plan>Watershed, 24 coins.</plan>\n<instructions>\n- load\n</instructions>\n<code>def c"))).toEqual({
      tool: "submit_plan",
      plan: "Watershed, 24 coins.",
      code: "def c",
    });
  });

  it("a code fence inside the tag is layout: hidden while open, gone once closed", () => {
    expect(draftView(text("<execute_python>\n```pyth"))).toEqual({ tool: "execute_python" });
    expect(draftView(text("<execute_python>\n```python\nprint(1)\n"))).toMatchObject({ code: "print(1)" });
    expect(draftView(text("<execute_python>\n```python\nprint(1)\n```\n</execute_python>"))).toMatchObject({ code: "print(1)" });
  });

  it("a JSON object as the tag's body, fenced or not, partial or whole", () => {
    expect(draftView(text('<reply>{"response": "Hi there'))).toEqual({ tool: "reply", response: "Hi there" });
    expect(draftView(text('<execute_python>\n```json\n{"thinking": "t", "code": "x = \\"a\\"'))).toEqual({ tool: "execute_python", thinking: "t", code: 'x = "a"' });
    expect(draftView(text('<reply>{"response": "Done.", "action": "edit_code"}</reply>'))).toEqual({ tool: "reply", response: "Done." });
  });

  it("a Hermes <tool_call> block, partial or whole", () => {
    expect(draftView(text('Let me run it.\n<tool_call>\n{"name": "execute_python", "arguments": {"thinking": "Segment", "code": "import num'))).toEqual({
      tool: "execute_python",
      thinking: "Let me run it.\n\nSegment",
      code: "import num",
    });
    expect(draftView(text('<tool_call>{"name": "reply", "arguments": {"response": "Yes."}}</tool_call>'))).toEqual({ tool: "reply", response: "Yes." });
    expect(draftView(text('<tool_call>{"na'))).toEqual({});
  });

  it("a bare or fenced JSON reply, partial or whole", () => {
    expect(draftView(text('{"name": "execute_python", "arguments": {"code": "print('))).toEqual({ tool: "execute_python", code: "print(" });
    expect(draftView(text('```json\n{"tool": "reply", "args": {"response": "Hel'))).toEqual({ tool: "reply", response: "Hel" });
    expect(draftView(text('<thinking>Plan.</thinking>\n{"name": "finalize_plan", "arguments": {"thinking": "Plan."}}'))).toEqual({ tool: "finalize_plan", thinking: "Plan." });
  });

  it("plain text with no call yet is the thinking; reasoning comes first", () => {
    expect(draftView(text("I will look at the picture first."))).toEqual({ thinking: "I will look at the picture first." });
    expect(draftView(text("<execute_python>x=1", { reasoning: "Let me try." }))).toEqual({ tool: "execute_python", thinking: "Let me try.", code: "x=1" });
  });

  it("only the first of several calls is shown (the one that is used)", () => {
    expect(draftView(text("<execute_python>a = 1</execute_python><execute_python>b = 2"))).toMatchObject({ code: "a = 1" });
  });

  it("a tag of an unknown tool is text, not a call", () => {
    expect(draftView(text("Use <b>bold</b> here"))).toEqual({ thinking: "Use <b>bold</b> here" });
  });

  it("grows as the tags stream in and ends with the code the tag holds", () => {
    const full = "<thinking>Count them.</thinking>\n<execute_python>\nif a < b and c > d:\n    print('<done>')\n</execute_python>";
    let last = "";
    for (const p of prefixes(full)) {
      const code = draftView(text(p)).code ?? "";
      // A held-back partial tag may shorten the tail by a few characters, never rewrite what came before it.
      expect(code.startsWith(last.slice(0, Math.max(0, last.length - 8))), `at ${JSON.stringify(p)}`).toBe(true);
      last = code;
    }
    expect(last).toBe("if a < b and c > d:\n    print('<done>')");
  });
});
