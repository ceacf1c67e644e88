/**
 * The habits of real models, undone where a tool call enters Argus (reply-calls.ts), so every
 * agent gets the same tolerance and no run spends a correction turn on them: code wrapped in a
 * markdown fence, arguments encoded twice or written as loose JSON, a tool called by a name
 * the model was trained on. Each habit undone is named, for health. Pure.
 */
import { CODE_FIELDS, unwrapCodeFence } from "./code-fence";
import { readArguments, type ArgsRepair } from "./repair-args";
import type { ToolCall } from "./stream-reply";
import { mainField, shapeOf, THINKING_FIELDS } from "./tagged-calls";
import { resolveToolName } from "./tool-aliases";
import type { ToolSpecs } from "./tool-schema";

export type ModelHabit = "fenced_code" | "thinking_in_text" | "double_encoded" | "loose_json" | "tool_alias";

/** For a person, on /status: what Argus had to undo. */
export const HABIT_LABELS: Readonly<Record<ModelHabit, string>> = {
  fenced_code: "code wrapped in a markdown fence",
  thinking_in_text: "thinking written in the reply's text",
  double_encoded: "arguments encoded twice",
  loose_json: "loose JSON arguments (trailing commas, single quotes, a fence)",
  tool_alias: "a tool called by another name",
};

const REPAIR_HABIT: Record<ArgsRepair, ModelHabit> = {
  double_encoded: "double_encoded",
  loose_json: "loose_json",
  fenced_json: "loose_json",
};

export interface NormalizedCall {
  call: ToolCall;
  habits: ModelHabit[];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * An alias call's arguments made to fit the real tool: as they are, or (for a call whose only
 * argument is one string, or raw text such as ipython's bare code) that string as the tool's
 * main field; missing thinking fields take the reply's thinking. Undefined when they don't fit.
 */
function fitAlias(value: unknown, spec: ToolSpecs[string], thinking: string): Record<string, unknown> | undefined {
  const shape = shapeOf(spec);
  const main = mainField(shape);
  let args: Record<string, unknown> | undefined;
  if (isObject(value)) {
    args = { ...value };
    const own = Object.entries(args).filter(([key]) => !THINKING_FIELDS.has(key));
    if (main !== undefined && args[main] === undefined && own.length === 1 && typeof own[0]![1] === "string") {
      delete args[own[0]![0]];
      args[main] = own[0]![1];
    }
  } else if (typeof value === "string" && main !== undefined) {
    args = { [main]: value };
  }
  if (args === undefined) return undefined;
  for (const [name] of shape.fields) {
    if (args[name] === undefined && THINKING_FIELDS.has(name)) args[name] = thinking;
  }
  return spec.schema.safeParse(args).success ? args : undefined;
}

/** Code fields that are one fenced block, unwrapped; undefined when there was none. */
function unfencedCode(args: Record<string, unknown>): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined;
  for (const field of CODE_FIELDS) {
    const value = args[field];
    if (typeof value !== "string") continue;
    const code = unwrapCodeFence(value);
    if (code === undefined) continue;
    out ??= { ...args };
    out[field] = code;
  }
  return out;
}

/**
 * One call with the habits undone. A call left as it was keeps its raw text exactly (so a
 * correction quotes what the model sent); a changed one carries its arguments re-encoded.
 */
export function normalizeCall(call: ToolCall, tools: ToolSpecs, thinking: string): NormalizedCall {
  const habits: ModelHabit[] = [];
  const read = readArguments(call.raw);
  const target = resolveToolName(call.name, Object.keys(tools));
  let name = call.name;
  let value: unknown;
  if (read.ok) {
    value = read.value;
    for (const repair of read.repairs) if (!habits.includes(REPAIR_HABIT[repair])) habits.push(REPAIR_HABIT[repair]);
  } else if (target !== undefined && target !== call.name) {
    // Not JSON: an alias may still take it as its code (ipython sends bare code).
    value = call.raw;
  } else {
    return { call, habits: [] };
  }
  if (target !== undefined && target !== call.name) {
    const fitted = fitAlias(value, tools[target]!, thinking);
    if (fitted === undefined) return { call, habits: [] };
    name = target;
    value = fitted;
    habits.push("tool_alias");
  }
  if (isObject(value)) {
    const unfenced = unfencedCode(value);
    if (unfenced !== undefined) {
      value = unfenced;
      habits.push("fenced_code");
    }
  }
  if (habits.length === 0) return { call, habits };
  return { call: { ...call, name, args: value, raw: JSON.stringify(value) }, habits };
}
