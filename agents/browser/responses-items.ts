/**
 * The Responses API's items as the browsing agent reads and writes them (responses-engine.ts keeps
 * the history and the turns): the function tools it offers beside the computer tool, and what a
 * response's reasoning, message and call items say — their texts, the model's pending safety
 * checks, and a function call as a move (or an `invalid` move saying what is wrong with it). Pure.
 */
import { describeAction } from "@/lib/engines/computer/computer-actions";
import type { ResponseItem } from "@/lib/engines/llm/models";
import { toJsonSchema } from "@/lib/engines/llm/tool-schema";
import type { BrowserMove } from "./engine";
import { browserTools, toolMove, type FunctionCall } from "./tools";

const FUNCTION_TOOLS = ["goto", "back", "save_image", "done"] as const;
type FunctionTool = (typeof FUNCTION_TOOLS)[number];

/** The model's own safety check, with the id Argus must send back when the person confirms it. */
export interface ModelCheck {
  id: string;
  code: string;
  message: string;
}

/** Responses-style function tools (name and parameters at the top level), from the chat tools' schemas. */
export function functionTools(): Record<string, unknown>[] {
  return FUNCTION_TOOLS.map((name) => ({
    type: "function",
    name,
    description: browserTools[name].description,
    parameters: toJsonSchema(browserTools[name].schema),
    strict: false,
  }));
}

/** A field that should be a string, or "" when the model sent something else. */
export const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** Texts of a reasoning item's summary. */
export function summaryText(item: ResponseItem): string {
  const summary = Array.isArray(item.summary) ? (item.summary as Record<string, unknown>[]) : [];
  return summary.map((part) => text(part?.text)).filter(Boolean).join("\n");
}

/** A message item's text and refusal parts. */
export function messageText(item: ResponseItem): { text: string; refusal: string } {
  const content = Array.isArray(item.content) ? (item.content as Record<string, unknown>[]) : [];
  return {
    text: content.filter((p) => p?.type === "output_text").map((p) => text(p.text)).join(""),
    refusal: content.filter((p) => p?.type === "refusal").map((p) => text(p.refusal)).join(""),
  };
}

/** A computer call's `pending_safety_checks`: those with an id (it must be sent back), in words when the model gave none. */
export function readChecks(value: unknown): ModelCheck[] {
  if (!Array.isArray(value)) return [];
  return (value as Record<string, unknown>[])
    .filter((c) => typeof c?.id === "string")
    .map((c) => ({ id: c.id as string, code: text(c.code) || "model_check", message: text(c.message) || "The model flagged this step." }));
}

/** The move a function call asks for, or `invalid` saying what is wrong with it. */
export function functionMove(name: string, rawArguments: unknown): BrowserMove {
  const summary = `${name}(${text(rawArguments).slice(0, 200)})`;
  if (!(FUNCTION_TOOLS as readonly string[]).includes(name)) {
    return { tool: "invalid", error: `There is no function ${JSON.stringify(name)}: use the computer tool, or one of ${FUNCTION_TOOLS.join(", ")}.`, summary };
  }
  let args: unknown;
  try {
    args = rawArguments === undefined || rawArguments === "" ? {} : JSON.parse(text(rawArguments));
  } catch {
    return { tool: "invalid", error: `The arguments of ${name} are not valid JSON.`, summary };
  }
  const parsed = browserTools[name as FunctionTool].schema.safeParse(args);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
    return { tool: "invalid", error: `The arguments of ${name} are not valid: ${where}${issue?.message ?? "invalid"}.`, summary };
  }
  // The arguments were validated by the schema of the tool `name`: the pair is that tool's call.
  return toolMove({ name, args: parsed.data } as FunctionCall);
}

/** A move in one line, for the history's old turns and the notices. */
export function describeMove(move: BrowserMove): string {
  switch (move.tool) {
    case "computer":
      return describeAction(move.action);
    case "goto":
      return `goto(${move.url})`;
    case "back":
      return "back()";
    case "save_image":
      return `save_image(${move.name})`;
    case "done":
      return "done";
    case "invalid":
      return move.summary;
  }
}
