/**
 * The browsing agent's model over Chat Completions: function tools (tools.ts),
 * one call per move. The context is the task, then one short line per earlier
 * move and what it led to, and only the newest screenshot as a picture (older
 * ones cost tokens and mislead: the page has changed since).
 */
import type { ModelMessage } from "ai";
import type { StepContext } from "@/agents/types";
import { joinThinking } from "@/lib/engines/llm/reply-calls";
import type { BrowserDecision, BrowserEngine, BrowserEngineInputs, BrowserMove, MoveOutcome } from "./engine";
import { browserSystem, browserTask } from "./prompt";
import { browserTools, computerMove, toolMove } from "./tools";

/** Earlier moves kept in the context, newest last; older ones are summarised as a count. */
const KEPT_MOVES = 16;

interface Past {
  move: string;
  note: string;
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
    const thinking = joinThinking(res.thinking, res.args.thinking ?? "");
    const move = res.name === "computer" ? computerMove(res.args) : toolMove(res);
    this.lastMove = describeMove(move);
    return { move, thinking, usage: res.usage };
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
