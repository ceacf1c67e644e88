import { describe, expect, it } from "vitest";
import { z } from "zod";
import { normalizeCall } from "./tool-call-habits";
import type { ToolCall } from "./stream-reply";

const thinking = z.string().max(8_000);
const tools = {
  execute_python: { description: "Run Python.", schema: z.object({ thinking, code: z.string().min(1) }) },
  finalize_plan: { description: "Stop.", schema: z.object({ thinking }) },
};
const replyTools = { reply: { description: "Answer.", schema: z.object({ response: z.string().min(1), action: z.enum(["edit_code"]).optional() }) } };

const call = (name: string, raw: string): ToolCall => {
  let args: unknown;
  try {
    args = JSON.parse(raw);
  } catch {
    args = undefined;
  }
  return { id: "call_1", name, raw, args };
};
const code = "import numpy as np\nprint(np.zeros(3))";

describe("normalizeCall", () => {
  it("leaves a clean call exactly as it was", () => {
    const clean = call("execute_python", JSON.stringify({ thinking: "t", code }));
    expect(normalizeCall(clean, tools, "")).toEqual({ call: clean, habits: [] });
  });

  it("unwraps a fenced code argument", () => {
    const fenced = call("execute_python", JSON.stringify({ thinking: "t", code: "```python\n" + code + "\n```" }));
    const out = normalizeCall(fenced, tools, "");
    expect(out.habits).toEqual(["fenced_code"]);
    expect(out.call.args).toEqual({ thinking: "t", code });
    expect(JSON.parse(out.call.raw)).toEqual({ thinking: "t", code });
  });

  it("reads double-encoded and loose arguments", () => {
    const double = normalizeCall(call("execute_python", JSON.stringify(JSON.stringify({ thinking: "t", code }))), tools, "");
    expect(double).toMatchObject({ habits: ["double_encoded"], call: { args: { thinking: "t", code } } });
    const loose = normalizeCall(call("execute_python", `{'thinking': 't', 'code': 'print(1)',}`), tools, "");
    expect(loose).toMatchObject({ habits: ["loose_json"], call: { args: { thinking: "t", code: "print(1)" } } });
  });

  it("leaves unreadable arguments for the correction", () => {
    const broken = call("execute_python", `{"code": "print(1)" "thinking": "t"}`);
    expect(normalizeCall(broken, tools, "")).toEqual({ call: broken, habits: [] });
  });

  it("maps an alias whose arguments fit, filling thinking from the reply", () => {
    const out = normalizeCall(call("python", JSON.stringify({ code })), tools, "Look first.");
    expect(out).toMatchObject({ habits: ["tool_alias"], call: { name: "execute_python", args: { code, thinking: "Look first." } } });
  });

  it("maps an alias whose one string argument has another name, or bare code", () => {
    expect(normalizeCall(call("final_answer", JSON.stringify({ answer: "24 coins." })), replyTools, "")).toMatchObject({
      habits: ["tool_alias"],
      call: { name: "reply", args: { response: "24 coins." } },
    });
    expect(normalizeCall(call("ipython", code), tools, "")).toMatchObject({ call: { name: "execute_python", args: { code, thinking: "" } } });
  });

  it("unwraps the fence of an alias's code too", () => {
    const out = normalizeCall(call("run_code", JSON.stringify({ code: "```\n" + code + "\n```" })), tools, "");
    expect(out).toMatchObject({ habits: ["tool_alias", "fenced_code"], call: { name: "execute_python", args: { code } } });
  });

  it("leaves an alias whose arguments don't fit, and unknown names, for the correction", () => {
    const misfit = call("python", JSON.stringify({ script: code, timeout: 5 }));
    expect(normalizeCall(misfit, tools, "")).toEqual({ call: misfit, habits: [] });
    const unknown = call("bash", JSON.stringify({ cmd: "ls" }));
    expect(normalizeCall(unknown, tools, "")).toEqual({ call: unknown, habits: [] });
    const notOffered = call("final_answer", JSON.stringify({ answer: "x" }));
    expect(normalizeCall(notOffered, tools, "")).toEqual({ call: notOffered, habits: [] });
  });
});
