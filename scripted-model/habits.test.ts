import { describe, expect, it } from "vitest";
import { applyHabits, looseJson } from "./habits";
import type { Turn } from "./scenario";

const turn: Turn = { model: "planner", toolCalls: [{ name: "execute_python", args: { thinking: "Segment.", code: "print(1)" } }] };

describe("applyHabits", () => {
  it("returns a turn without habits as it is", () => {
    expect(applyHabits(turn)).toBe(turn);
  });

  it("fences code fields three ways", () => {
    expect(applyHabits({ ...turn, fence: "python" }).toolCalls![0]!.args).toEqual({ thinking: "Segment.", code: "```python\nprint(1)\n```" });
    expect(applyHabits({ ...turn, fence: "bare" }).toolCalls![0]!.args).toMatchObject({ code: "```\nprint(1)\n```" });
    expect(applyHabits({ ...turn, fence: "sentence" }).toolCalls![0]!.args).toMatchObject({ code: "Here is the code:\n\n```python\nprint(1)\n```\n" });
  });

  it("writes thinking in the text, closed, or unclosed with the calls as tags after it", () => {
    expect(applyHabits({ ...turn, reasoning: "Hmm.", thinkInText: "think" })).toEqual({ ...turn, text: "<think>\nHmm.\n</think>\n\n" });
    expect(applyHabits({ ...turn, thinkInText: "thinking" }).text).toBe("<thinking>\nSegment.\n</thinking>\n\n");
    const unclosed = applyHabits({ ...turn, thinkInText: "unclosed" });
    expect(unclosed.toolCalls).toBeUndefined();
    expect(unclosed.text).toBe('<think>\nSegment.\n\n<execute_python>\n{"thinking":"Segment.","code":"print(1)"}\n</execute_python>');
  });

  it("encodes arguments twice, or loosely", () => {
    const double = applyHabits({ ...turn, argumentsAs: "double_encoded" }).toolCalls![0]!.args as string;
    expect(JSON.parse(JSON.parse(double) as string)).toEqual(turn.toolCalls![0]!.args);
    expect(applyHabits({ ...turn, argumentsAs: "loose" }).toolCalls![0]!.args).toBe("{'thinking': 'Segment.', 'code': 'print(1)', }");
    expect(looseJson({ a: ["it's", 2] })).toBe("{'a': ['it\\'s', 2, ], }");
  });

  it("renames the first call, and cuts it halfway with finish_reason length", () => {
    expect(applyHabits({ ...turn, callAs: "python" }).toolCalls![0]!.name).toBe("python");
    const cut = applyHabits({ ...turn, cutOff: true });
    expect(cut.finishReason).toBe("length");
    const raw = JSON.stringify(turn.toolCalls![0]!.args);
    expect(cut.toolCalls).toEqual([{ name: "execute_python", args: raw.slice(0, Math.ceil(raw.length / 2)) }]);
  });
});
