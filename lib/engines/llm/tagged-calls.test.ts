import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fitTaggedCall, textProtocolInstructions } from "./tagged-calls";
import { parseTaggedReply } from "./text-protocol";
import type { ToolSpecs } from "./tool-schema";

const thinking = z.string().max(100);
const tools: ToolSpecs = {
  execute_python: { description: "Run Python.", schema: z.object({ thinking, code: z.string().min(1) }) },
  ask_user: {
    description: "Ask the person.",
    schema: z.object({ thinking, question: z.string().min(1), options: z.array(z.string()).optional().describe("Short choices.") }),
  },
  finalize_plan: { description: "Stop exploring.", schema: z.object({ thinking }) },
  fix_code: {
    description: "Fix it.",
    schema: z.object({ thoughts: z.string().min(1), code: z.string().optional(), test: z.string().optional() }),
  },
  reply: {
    description: "Answer the person.",
    schema: z.object({ response: z.string().min(1), action: z.enum(["generate_or_edit_vision_code", "edit_code"]).optional() }),
  },
};

/** Parse `text` and fit its first call, as the model client does. */
function fit(text: string): unknown {
  const parsed = parseTaggedReply(text, Object.keys(tools));
  const call = parsed.calls[0]!;
  const raw = fitTaggedCall(call, tools[call.name]!, parsed.thinking);
  const args: unknown = JSON.parse(raw);
  return tools[call.name]!.schema.parse(args);
}

describe("fitTaggedCall", () => {
  it("a one-field tool takes the tag's text, fence removed, and the thinking", () => {
    expect(fit("<thinking>look</thinking><execute_python>\n```python\nprint('a \"b\"')\n```\n</execute_python>")).toEqual({
      thinking: "look",
      code: "print('a \"b\"')",
    });
  });

  it("a required thinking field left out becomes empty rather than failing", () => {
    expect(fit("<finalize_plan/>")).toEqual({ thinking: "" });
  });

  it("child tags fill their fields, lists as JSON or one per line", () => {
    expect(fit("<ask_user><question>Which coins?</question><options>[\"all\", \"gold\"]</options></ask_user>")).toEqual({
      thinking: "",
      question: "Which coins?",
      options: ["all", "gold"],
    });
    expect(fit("<ask_user><question>Q?</question><options>\n- all\n- gold only\n</options></ask_user>")).toMatchObject({ options: ["all", "gold only"] });
  });

  it("plain text in a many-field tag goes to the first required text field", () => {
    expect(fit("<ask_user>Which coins count?</ask_user>")).toEqual({ thinking: "", question: "Which coins count?" });
  });

  it("attributes fill fields too", () => {
    expect(fit('<reply action="edit_code">Sure, changing it.</reply>')).toEqual({ response: "Sure, changing it.", action: "edit_code" });
  });

  it("`thoughts` comes from <thinking>; code from its child tag", () => {
    expect(fit("<thinking>off by one</thinking><fix_code><code>\ndef f(p):\n    return 1\n</code></fix_code>")).toEqual({
      thoughts: "off by one",
      code: "def f(p):\n    return 1",
    });
  });

  it("a JSON body is kept, with the thinking added when left out", () => {
    expect(fit('<thinking>t</thinking><execute_python>{"code": "x = 1"}</execute_python>')).toEqual({ thinking: "t", code: "x = 1" });
  });

  it("text that fits no field stays text, so validation explains", () => {
    const parsed = parseTaggedReply("<fix_code>it broke</fix_code>", Object.keys(tools));
    expect(fitTaggedCall(parsed.calls[0]!, tools.fix_code!, "")).toBe("it broke");
  });

  it("a Hermes call keeps the model's own JSON", () => {
    const parsed = parseTaggedReply('<tool_call>{"name": "execute_python", "arguments": {"code": "1"}}</tool_call>', Object.keys(tools));
    expect(JSON.parse(fitTaggedCall(parsed.calls[0]!, tools.execute_python!, "why"))).toEqual({ code: "1", thinking: "why" });
  });
});

describe("textProtocolInstructions", () => {
  const text = textProtocolInstructions(tools);

  it("shows each tool as a tag to copy, with its description", () => {
    expect(text).toContain("<execute_python>\n…code…\n</execute_python>\nRun Python.");
    expect(text).toContain("<finalize_plan/>\nStop exploring.");
    expect(text).toContain('<ask_user>\n<question>…question…</question>\n<options>["…", "…"]</options>\n</ask_user>');
    expect(text).toContain("options (optional: leave the tag out): Short choices.");
    expect(text).toContain("<action>generate_or_edit_vision_code or edit_code</action>");
  });

  it("asks for thinking first and exactly one action", () => {
    expect(text).toMatch(/<thinking>…<\/thinking>, then exactly ONE action tag/);
  });

  it("every example it shows parses back into a valid call", () => {
    for (const [name, spec] of Object.entries(tools)) {
      const shown = new RegExp(`(<${name}(?:/>|>[\\s\\S]*?</${name}>))`).exec(text)![1]!;
      const filled = shown.replace(/\["…", "…"\]/g, '["a"]').replace("generate_or_edit_vision_code or edit_code", "edit_code").replace(/…\w+…/g, "x");
      const parsed = parseTaggedReply(`<thinking>t</thinking>${filled}`, Object.keys(tools));
      expect(parsed.calls[0]!.name).toBe(name);
      expect(spec.schema.safeParse(JSON.parse(fitTaggedCall(parsed.calls[0]!, spec, parsed.thinking))).success, name).toBe(true);
    }
  });
});

describe("one-field tools of other types", () => {
  it("the tag's text is read as the field's type", () => {
    const probe = { probe_ok: { description: "p", schema: z.object({ ok: z.boolean() }) } };
    const parsed = parseTaggedReply("<probe_ok>true</probe_ok>", ["probe_ok"]);
    expect(JSON.parse(fitTaggedCall(parsed.calls[0]!, probe.probe_ok, ""))).toEqual({ ok: true });
  });
});
