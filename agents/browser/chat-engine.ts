/**
 * The browsing agent's model over Chat Completions: function tools (tools.ts),
 * one call per move. The context is the task, then one short line per earlier
 * move and what it led to, and only the newest screenshot as a picture (older
 * ones cost tokens and mislead: the page has changed since).
 */
import type { ModelMessage } from "ai";
import type { StepContext } from "@/agents/types";
import { parseAction } from "@/lib/computer/computer-actions";
import { isArgusError } from "@/lib/errors";
import { joinThinking } from "@/lib/llm/reply-calls";
import type { BrowserDecision, BrowserEngine, BrowserEngineInputs, BrowserMove, MoveOutcome } from "./engine";
import { browserSystem, browserTask } from "./prompt";
import { browserTools } from "./tools";

/** Earlier moves kept in the context, newest last; older ones are summarised as a count. */
const KEPT_MOVES = 16;

interface Past {
  move: string;
  note: string;
}

const COMPUTER_FIELDS = ["x", "y", "button", "scroll_x", "scroll_y", "text", "keys", "path", "ms"] as const;

/** The computer tool's loose arguments as a Responses-style action, or an `invalid` move saying what is wrong. */
export function computerMove(args: Record<string, unknown>): BrowserMove {
  const action: Record<string, unknown> = { type: args.action };
  for (const field of COMPUTER_FIELDS) if (args[field] !== undefined && args[field] !== null) action[field] = args[field];
  // "ctrl+a" is how many models write a chord.
  if (typeof action.keys === "string") action.keys = action.keys.split("+").map((k) => k.trim()).filter(Boolean);
  const summary = `computer(${JSON.stringify(action).slice(0, 200)})`;
  try {
    return { tool: "computer", action: parseAction(action), checks: [] };
  } catch (error) {
    if (!isArgusError(error)) throw error;
    return { tool: "invalid", error: error.message, summary };
  }
}

function describeMove(m: BrowserMove): string {
  switch (m.tool) {
    case "computer":
      return `computer ${JSON.stringify(m.action)}`;
    case "goto":
      return `goto ${m.url}`;
    case "back":
      return "back";
    case "save_image":
      return `save_image ${m.name}`;
    case "done":
      return `done: ${m.answer}`;
    case "invalid":
      return m.summary;
  }
}

export class ChatBrowserEngine implements BrowserEngine {
  private readonly past: Past[] = [];
  private lastMove: string | null = null;

  constructor(private readonly inputs: BrowserEngineInputs) {}

  async decide(ctx: StepContext, outcome: MoveOutcome): Promise<BrowserDecision> {
    if (this.lastMove !== null) this.past.push({ move: this.lastMove, note: outcome.note });
    const res = await ctx.model.callTool("browser", {
      system: browserSystem(this.inputs.screen),
      messages: this.messages(outcome),
      tools: browserTools,
      signal: ctx.signal,
      onDraft: ctx.onDraft,
    });
    const args = res.args as Record<string, unknown> & { thinking?: string };
    const thinking = joinThinking(res.thinking, typeof args.thinking === "string" ? args.thinking : "");
    const move = this.toMove(res.name, args);
    this.lastMove = describeMove(move);
    return { move, thinking, usage: res.usage };
  }

  private toMove(name: string, args: Record<string, unknown>): BrowserMove {
    switch (name) {
      case "computer":
        return computerMove(args);
      case "goto":
        return { tool: "goto", url: String(args.url) };
      case "back":
        return { tool: "back" };
      case "save_image": {
        const region = args.region as { x: number; y: number; width: number; height: number } | undefined;
        return { tool: "save_image", name: String(args.name), ...(typeof args.selector === "string" ? { selector: args.selector } : {}), ...(region ? { region } : {}) };
      }
      default:
        return { tool: "done", answer: String(args.answer ?? "") };
    }
  }

  private messages(outcome: MoveOutcome): ModelMessage[] {
    const now = `${outcome.note ? `${outcome.note}\n` : ""}Screen: ${outcome.view.url}${outcome.view.title ? ` ("${outcome.view.title}")` : ""}.`;
    const screen = { type: "image" as const, image: outcome.view.image, mediaType: outcome.view.mediaType };
    const task = browserTask(this.inputs.task, this.inputs.startUrl);
    if (this.past.length === 0) return [{ role: "user", content: [{ type: "text", text: `${task}\n\n${now}` }, screen] }];
    const kept = this.past.slice(-KEPT_MOVES);
    const skipped = this.past.length - kept.length;
    const messages: ModelMessage[] = [{ role: "user", content: skipped > 0 ? `${task}\n\n(${skipped} earlier steps are not shown.)` : task }];
    kept.forEach((p, i) => {
      messages.push({ role: "assistant", content: p.move });
      const last = i === kept.length - 1;
      messages.push({ role: "user", content: last ? [{ type: "text", text: now }, screen] : p.note });
    });
    return messages;
  }
}
