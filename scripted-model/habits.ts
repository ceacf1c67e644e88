/**
 * Habits of the models people really serve, put on a turn so tests can ask for them: code in a
 * markdown fence, thinking written in the text (`<think>` from Qwen3 or DeepSeek-R1 served
 * without a reasoning parser), arguments encoded twice or as loose JSON, a tool called by the
 * name the model was trained on, and a reply cut at the output limit. Pure: a turn in, the turn
 * as such a model would have answered it out.
 */
import type { Turn } from "./scenario";

const CODE_FIELDS = ["code", "test"];

type Call = NonNullable<Turn["toolCalls"]>[number];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function fenced(code: string, how: NonNullable<Turn["fence"]>): string {
  if (how === "bare") return "```\n" + code + "\n```";
  const block = "```python\n" + code + "\n```";
  return how === "sentence" ? `Here is the code:\n\n${block}\n` : block;
}

/** A JSON value the way a careless writer of JavaScript would write it. */
export function looseJson(value: unknown): string {
  if (typeof value === "string") return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'").replace(/\n/g, "\\n")}'`;
  if (Array.isArray(value)) return `[${value.map((v) => `${looseJson(v)}, `).join("")}]`;
  if (isObject(value)) return `{${Object.entries(value).map(([k, v]) => `'${k}': ${looseJson(v)}, `).join("")}}`;
  return JSON.stringify(value);
}

function withArgs(call: Call, turn: Turn, first: boolean): Call {
  let args = call.args;
  if (turn.fence !== undefined && isObject(args)) {
    args = { ...args };
    for (const field of CODE_FIELDS) {
      const value = (args as Record<string, unknown>)[field];
      if (typeof value === "string") (args as Record<string, unknown>)[field] = fenced(value, turn.fence);
    }
  }
  if (turn.argumentsAs === "double_encoded" && typeof args !== "string") args = JSON.stringify(JSON.stringify(args ?? {}));
  if (turn.argumentsAs === "loose" && typeof args !== "string") args = looseJson(args ?? {});
  return { name: first && turn.callAs !== undefined ? turn.callAs : call.name, args };
}

/** A call as a tag holding its arguments (JSON, or the verbatim string). */
function asTag(call: Call): string {
  const body = typeof call.args === "string" ? call.args : JSON.stringify(call.args ?? {});
  return `<${call.name}>\n${body}\n</${call.name}>`;
}

/** The turn as a model with these habits would have sent it; a turn without any is returned as it is. */
export function applyHabits(turn: Turn): Turn {
  const { fence, thinkInText, argumentsAs, callAs, cutOff, ...rest } = turn;
  if (fence === undefined && thinkInText === undefined && argumentsAs === undefined && callAs === undefined && !cutOff) return turn;
  const original = turn.toolCalls ?? [];
  let calls = original.map((call, i) => withArgs(call, turn, i === 0));
  const out: Turn = { ...rest };
  if (thinkInText !== undefined) {
    const firstArgs = original[0]?.args;
    const thought = turn.reasoning ?? (isObject(firstArgs) && typeof firstArgs.thinking === "string" ? firstArgs.thinking : "Let me work this out.");
    delete out.reasoning;
    const tag = thinkInText === "thinking" ? "thinking" : "think";
    if (thinkInText === "unclosed") {
      out.text = `<think>\n${thought}\n\n${[turn.text ?? "", ...calls.map(asTag)].filter(Boolean).join("\n")}`;
      calls = [];
    } else {
      out.text = `<${tag}>\n${thought}\n</${tag}>\n\n${turn.text ?? ""}`;
    }
  }
  if (cutOff && calls.length > 0) {
    const first = calls[0]!;
    const raw = typeof first.args === "string" ? first.args : JSON.stringify(first.args ?? {});
    calls = [{ name: first.name, args: raw.slice(0, Math.ceil(raw.length / 2)) }];
    out.finishReason = "length";
  }
  if (original.length > 0 || calls.length > 0) out.toolCalls = calls;
  if (out.toolCalls?.length === 0) delete out.toolCalls;
  return out;
}
