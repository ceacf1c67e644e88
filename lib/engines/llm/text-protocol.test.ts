import { describe, expect, it } from "vitest";
import { parseTaggedReply, stripFence } from "./text-protocol";

const names = ["execute_python", "ask_user", "finalize_plan", "submit_plan"];

describe("parseTaggedReply", () => {
  it("reads thinking and one action tag whose text is the code", () => {
    const r = parseTaggedReply("<thinking>Count the coins.</thinking>\n<execute_python>\nimport cv2\nprint(1 < 2)\n</execute_python>", names);
    expect(r.thinking).toBe("Count the coins.");
    expect(r.calls).toEqual([{ name: "execute_python", raw: "import cv2\nprint(1 < 2)", body: "import cv2\nprint(1 < 2)", attributes: {}, form: "tag" }]);
  });

  it("self-closing tags and attributes", () => {
    const r = parseTaggedReply('<thinking>done</thinking><finalize_plan/> <ask_user kind="x">Which?</ask_user>', names);
    expect(r.calls.map((c) => [c.name, c.raw, c.attributes])).toEqual([
      ["finalize_plan", "{}", {}],
      ["ask_user", "Which?", { kind: "x" }],
    ]);
  });

  it("a JSON body is the arguments, fenced or not", () => {
    const r = parseTaggedReply('<submit_plan>\n```json\n{"plan": "p", "instructions": ["a"], "code": "def f(): pass"}\n```\n</submit_plan>', names);
    expect(JSON.parse(r.calls[0]!.raw)).toEqual({ plan: "p", instructions: ["a"], code: "def f(): pass" });
  });

  it("an unclosed tag runs to the end (a model cut by a stop sequence)", () => {
    const r = parseTaggedReply("<execute_python>\nprint(2)\n", names);
    expect(r.calls[0]!.body).toBe("print(2)");
  });

  it("text outside the tags is the thinking when there is no <thinking>", () => {
    const r = parseTaggedReply("I will look first.\n<execute_python>print(1)</execute_python>", names);
    expect(r.thinking).toBe("I will look first.");
  });

  it("a tag mentioned inside <thinking> is not a call", () => {
    const r = parseTaggedReply("<thinking>Then I use <finalize_plan/>.</thinking><execute_python>x=1</execute_python>", names);
    expect(r.calls.map((c) => c.name)).toEqual(["execute_python"]);
  });

  it("tags of tools not offered are ignored", () => {
    expect(parseTaggedReply("<b>bold</b> <reply>hi</reply>", names).calls).toEqual([]);
  });

  it("several calls are all reported, in order", () => {
    const r = parseTaggedReply("<execute_python>a</execute_python><execute_python>b</execute_python>", names);
    expect(r.calls.map((c) => c.raw)).toEqual(["a", "b"]);
  });

  it("Hermes/Qwen <tool_call> blocks, with arguments as an object or a JSON string", () => {
    const r = parseTaggedReply(
      'Let me run it.\n<tool_call>\n{"name": "execute_python", "arguments": {"thinking": "t", "code": "print(1)"}}\n</tool_call>\n<tool_call>{"name": "finalize_plan", "arguments": "{\\"thinking\\": \\"x\\"}"}</tool_call>',
      names,
    );
    expect(r.calls.map((c) => [c.name, c.form, JSON.parse(c.raw)])).toEqual([
      ["execute_python", "hermes", { thinking: "t", code: "print(1)" }],
      ["finalize_plan", "hermes", { thinking: "x" }],
    ]);
    expect(r.thinking).toBe("Let me run it.");
  });

  it("a Hermes block with broken JSON still names the call, so the model hears its JSON was broken", () => {
    const r = parseTaggedReply('<tool_call>{"name": "execute_python", "arguments": {"code": "x"</tool_call>', names);
    expect(r.calls[0]).toMatchObject({ name: "execute_python", raw: '{"name": "execute_python", "arguments": {"code": "x"' });
  });

  it("a fenced JSON block naming a tool, and a bare JSON reply", () => {
    const fenced = parseTaggedReply('Here:\n```json\n{"name": "finalize_plan", "arguments": {"thinking": "ok"}}\n```', names);
    expect(fenced.calls.map((c) => [c.name, c.form, c.raw])).toEqual([["finalize_plan", "json", '{"thinking":"ok"}']]);
    const bare = parseTaggedReply('{"tool": "ask_user", "args": {"thinking": "", "question": "Q?"}}', names);
    expect(bare.calls[0]).toMatchObject({ name: "ask_user", raw: '{"thinking":"","question":"Q?"}' });
  });

  it("with one tool on offer, a JSON object of its arguments is that tool's call", () => {
    const r = parseTaggedReply('```json\n{"plan": "p"}\n```', ["submit_plan"]);
    expect(r.calls[0]).toMatchObject({ name: "submit_plan", raw: '{"plan":"p"}' });
    expect(parseTaggedReply('```json\n{"plan": "p"}\n```', names).calls).toEqual([]);
  });

  it("JSON printed by code inside a tag is never read as a call", () => {
    const r = parseTaggedReply('<execute_python>print(\'{"name": "finalize_plan", "arguments": {}}\')</execute_python>', names);
    expect(r.calls.map((c) => c.name)).toEqual(["execute_python"]);
  });

  it("plain prose has no calls", () => {
    const r = parseTaggedReply("There are 24 coins.", names);
    expect(r.calls).toEqual([]);
    expect(r.thinking).toBe("There are 24 coins.");
  });
});

describe("stripFence", () => {
  it("removes one fence around the whole value only", () => {
    expect(stripFence("```python\nprint(1)\n```")).toBe("print(1)");
    expect(stripFence("x = 1\n```py\ny\n```")).toBe("x = 1\n```py\ny\n```");
  });
});

describe("hostile replies", () => {
  it("a 100 000-character reply of half-open tags, spaces and fences is read in one pass", () => {
    const nasty = [
      `<execute_python${" ".repeat(100_000)}`,
      `<execute_python a="${"x".repeat(50_000)}`,
      `<thinking>${"<".repeat(100_000)}`,
      `<tool_call>${"{".repeat(100_000)}`,
      "```json\n".repeat(12_000),
      `${"```\n ".repeat(20_000)}x`,
    ];
    for (const text of nasty) {
      const r = parseTaggedReply(text, names);
      expect(r.calls.length).toBeLessThanOrEqual(1);
    }
  });
});
