/**
 * The browsing agent's model over the Responses API's computer tool (OpenAI's computer-use
 * model, peers.md §A.4–A.6): `computer_call` items carry the action and the model's
 * `pending_safety_checks`; Argus answers each with a `computer_call_output` holding the next
 * screenshot, the page's `current_url`, and the checks the person confirmed (asked *before* the
 * action ran, by the browser steps). goto, back, save_image and done are function tools.
 *
 * History: resent on every call, not chained with `previous_response_id`, because
 * - a refused step must leave the history: the API refuses a computer_call_output that does not
 *   acknowledge the call's pending checks, so the refused call (and the reasoning that came with
 *   it) is dropped and the model is told in words instead; with server-side state the unanswered
 *   call would stay pending there forever;
 * - the context stays bounded and ours: only the last KEPT_TURNS turns keep their items and
 *   screenshots, older ones become one line each (the sample resends every screenshot and leans
 *   on `truncation: "auto"` alone);
 * - it works the same against any Responses-compatible server and the scripted model, and a
 *   retried request is simply the same request.
 * Reasoning items are sent back right before the call they came with, as the API requires.
 */
import type { StepContext } from "@/agents/types";
import { parseAction } from "@/lib/engines/computer/computer-actions";
import { isArgusError } from "@/lib/foundation/errors";
import type { ResponseItem } from "@/lib/engines/llm/models";
import { joinThinking } from "@/lib/engines/llm/reply-calls";
import type { SafetyCheck } from "@/lib/foundation/protocol/browser-wire";
import type { BrowserDecision, BrowserEngine, BrowserEngineInputs, BrowserMove, MoveOutcome, ScreenView } from "./engine";
import { browserTask } from "./prompt";
import { describeMove, functionMove, functionTools, messageText, readChecks, summaryText, text, type ModelCheck } from "./responses-items";

/** Turns (a response and Argus's answer to it) kept whole in the resent history, screenshots included. */
const KEPT_TURNS = 3;
/** One line per older turn; past this many only a count is kept. */
const KEPT_LINES = 40;

/** The call of the last response that Argus must answer. */
type Pending =
  | { kind: "computer"; callId: string; checks: ModelCheck[]; summary: string }
  | { kind: "function"; callId: string; summary: string }
  | { kind: "none"; summary: string };

interface Turn {
  /** The response's output items sent back (up to and including the call that was used). */
  items: ResponseItem[];
  /** Argus's answer: the call's output, words and perhaps a screenshot. */
  answer: Record<string, unknown>[];
  /** The turn in one line, for when it is too old to be resent whole. */
  line: string;
}

export interface ResponsesEngineOptions {
  /** Turns kept whole in the resent history (default 3): bounds the screenshots sent per call. */
  keptTurns?: number;
}

export function responsesInstructions(screen: readonly [number, number]): string {
  const [w, h] = screen;
  return `You operate a web browser for a person with the computer tool, one action at a time, and see a screenshot after every action. The screen is ${w}×${h} pixels.

How to work:
- Look at the latest screenshot before each action; make one call per turn.
- Click a text field before typing into it. To replace a field's text, press the keys CTRL and A together, then type.
- To scroll a box inside the page, scroll with the pointer over that box.
- The address bar and the back button are not on the screenshots: use the goto and back functions instead.
- Links may open a new tab; you are then shown the new tab.
- Some steps (typing a password, submitting a form, leaving the site, downloading) are shown to the person first; if they refuse, you are told, and you must not try the same thing another way.
- Some addresses are blocked; when you are told a page was refused, go on without it.
- When the task needs a picture from the page for later analysis, call save_image (a CSS selector of the image, or a region of the screenshot) with a clear file name.
- Finish by calling done with the answer in one or two sentences, naming any pictures you saved. If you cannot finish, call done and say why.`;
}

const dataUrl = (view: ScreenView): string => `data:${view.mediaType};base64,${Buffer.from(view.image).toString("base64")}`;

function sameImage(a: Uint8Array | null, b: Uint8Array): boolean {
  return a !== null && a.length === b.length && Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.length), Buffer.from(b.buffer, b.byteOffset, b.length)) === 0;
}

const oneLine = (s: string, max = 240): string => {
  const flat = s.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

export class ResponsesEngine implements BrowserEngine {
  private readonly keptTurns: number;
  private readonly tools: Record<string, unknown>[];
  /** Screenshot of the start page, shown until it is older than the kept turns. */
  private start: ScreenView | null = null;
  private readonly turns: Turn[] = [];
  private pending: Pending | null = null;
  /** The items of the last response, waiting for Argus's answer to become a turn. */
  private lastItems: ResponseItem[] = [];
  private lastImage: Uint8Array | null = null;
  /** Told with the next answer: the last response made more calls than the one used. */
  private notice = "";

  constructor(
    private readonly inputs: BrowserEngineInputs,
    options: ResponsesEngineOptions = {},
  ) {
    this.keptTurns = Math.max(1, options.keptTurns ?? KEPT_TURNS);
    const [w, h] = inputs.screen;
    this.tools = [{ type: "computer_use_preview", display_width: w, display_height: h, environment: "browser" }, ...functionTools()];
  }

  async decide(ctx: StepContext, outcome: MoveOutcome): Promise<BrowserDecision> {
    if (this.start === null) {
      this.start = outcome.view;
      this.lastImage = outcome.view.image;
    } else if (this.pending !== null) {
      this.turns.push(this.answer(this.pending, outcome));
      // Answered once: a call that fails and is made again resends the same history.
      this.pending = null;
    }
    const reply = await ctx.model.responses("browser", {
      body: { input: this.input(outcome), tools: this.tools, truncation: "auto", reasoning: { summary: "concise" } },
      signal: ctx.signal,
    });
    const decision = this.read(reply.output, reply.status, reply.incompleteReason);
    return { ...decision, usage: reply.usage };
  }

  /** Argus's answer to the last response's call, from what its move led to. */
  private answer(pending: Pending, outcome: MoveOutcome): Turn {
    const view = outcome.view;
    const note = [this.notice, outcome.note.trim()].filter(Boolean).join("\n");
    this.notice = "";
    const line = `${pending.summary}${note ? ` → ${oneLine(note)}` : ""}`;
    const words = (extra: string) => ({ role: "user", content: [{ type: "input_text", text: extra }] });
    const screenshot = (lead: string) => {
      this.lastImage = view.image;
      return { role: "user", content: [{ type: "input_text", text: lead }, { type: "input_image", image_url: dataUrl(view) }] };
    };
    const where = `The screen now: ${view.url}${view.title ? ` ("${view.title}")` : ""}.`;
    const changed = !sameImage(this.lastImage, view.image);

    if (pending.kind === "computer") {
      const confirmed = pending.checks.filter((check) => outcome.acknowledged.some((a) => a.source === "model" && a.code === check.code && a.message === check.message));
      if (confirmed.length < pending.checks.length) {
        // Not confirmed, so never done: the API refuses an output that does not acknowledge every
        // pending check, so the call leaves the history and the model is told in words.
        const told = note || `The step ${pending.summary} was not carried out.`;
        return { items: [], answer: [changed ? screenshot(`${told}\n${where}`) : words(told)], line: `${pending.summary} → not done: ${oneLine(told)}` };
      }
      this.lastImage = view.image;
      const output = {
        type: "computer_call_output",
        call_id: pending.callId,
        acknowledged_safety_checks: confirmed,
        output: { type: "computer_screenshot", image_url: dataUrl(view) },
        current_url: view.url,
      };
      return { items: this.lastItems, answer: note ? [output, words(note)] : [output], line };
    }
    if (pending.kind === "function") {
      const output = { type: "function_call_output", call_id: pending.callId, output: note || "Done." };
      return { items: this.lastItems, answer: changed ? [output, screenshot(where)] : [output], line };
    }
    // The last response made no call (an unreadable answer): tell the model and show the screen.
    const told = note || "Please continue with one action.";
    return { items: this.lastItems, answer: [changed ? screenshot(`${told}\n${where}`) : words(told)], line };
  }

  /** The request's input: instructions, the task, a line per old turn, then the kept turns whole. */
  private input(outcome: MoveOutcome): Record<string, unknown>[] {
    const kept = this.turns.slice(-this.keptTurns);
    const old = this.turns.slice(0, this.turns.length - kept.length);
    const view = this.start ?? outcome.view;
    const task = `${browserTask(this.inputs.task, this.inputs.startUrl)}\nIt shows ${view.url}${view.title ? ` ("${view.title}")` : ""}.`;
    const items: Record<string, unknown>[] = [
      { role: "developer", content: responsesInstructions(this.inputs.screen) },
      {
        role: "user",
        content:
          old.length === 0
            ? [{ type: "input_text", text: task }, { type: "input_image", image_url: dataUrl(view) }]
            : [{ type: "input_text", text: `${task} (That first screenshot is no longer shown.)` }],
      },
    ];
    if (old.length > 0) {
      const lines = old.slice(-KEPT_LINES).map((t, i) => `${old.length - Math.min(old.length, KEPT_LINES) + i + 1}. ${t.line}`);
      const skipped = old.length > KEPT_LINES ? `(${old.length - KEPT_LINES} earlier steps are not listed.)\n` : "";
      items.push({ role: "user", content: [{ type: "input_text", text: `Your earlier steps, whose screenshots are no longer shown:\n${skipped}${lines.join("\n")}` }] });
    }
    for (const turn of kept) items.push(...turn.items, ...turn.answer);
    return items;
  }

  /** The move a response asks for: its first call, or its message when it makes none. */
  private read(output: ResponseItem[], status: string, incompleteReason: string | undefined): Omit<BrowserDecision, "usage"> {
    const thoughts: string[] = [];
    const said: string[] = [];
    const refusals: string[] = [];
    const callAt = output.findIndex((item) => item.type === "computer_call" || item.type === "function_call");
    const before = callAt < 0 ? output : output.slice(0, callAt);
    for (const item of before) {
      if (item.type === "reasoning") thoughts.push(summaryText(item));
      if (item.type === "message") {
        const m = messageText(item);
        if (m.text) said.push(m.text);
        if (m.refusal) refusals.push(m.refusal);
      }
    }
    const call = callAt < 0 ? undefined : output[callAt]!;
    const extra = callAt < 0 ? 0 : output.slice(callAt + 1).filter((item) => item.type === "computer_call" || item.type === "function_call").length;

    let move: BrowserMove;
    if (call === undefined) {
      // Items sent back must end with what a reasoning item leads to: drop a trailing reasoning item.
      const lastMessage = output.map((item) => item.type).lastIndexOf("message");
      this.lastItems = output.slice(0, lastMessage + 1).filter((item) => item.type === "reasoning" || item.type === "message");
      const answer = [...said, ...refusals].join("\n").trim();
      if (answer !== "" && status !== "incomplete") {
        // The computer-use model ends a task by saying so: that is its answer.
        this.pending = { kind: "none", summary: "done" };
        return { move: { tool: "done", answer }, thinking: joinThinking(...thoughts) };
      }
      const error = status === "incomplete"
        ? `Your answer was cut off (${incompleteReason ?? "incomplete"}) before it made a call. Make one call: an action, or done.`
        : "Your answer had neither an action nor a message. Make one call: an action, or done.";
      this.pending = { kind: "none", summary: "(no action)" };
      return { move: { tool: "invalid", error, summary: "no action" }, thinking: joinThinking(...thoughts, ...said) };
    }

    // Only the first call is used; later items are not sent back (their calls would need outputs).
    this.lastItems = output.slice(0, callAt + 1);
    const callId = text(call.call_id);
    if (call.type === "computer_call") {
      const checks = readChecks(call.pending_safety_checks);
      try {
        const action = parseAction(call.action);
        move = { tool: "computer", action, checks: checks.map((c): SafetyCheck => ({ code: c.code, message: c.message, source: "model" })) };
      } catch (error) {
        if (!isArgusError(error)) throw error;
        move = { tool: "invalid", error: error.message, summary: `computer(${JSON.stringify(call.action ?? null).slice(0, 200)})` };
      }
      this.pending = { kind: "computer", callId, checks, summary: describeMove(move) };
    } else {
      move = functionMove(text(call.name), call.arguments);
      this.pending = { kind: "function", callId, summary: describeMove(move) };
    }
    this.notice = extra > 0 ? `Your answer made ${extra + 1} calls; only the first, ${describeMove(move)}, was used. Make one call per turn.` : "";
    return { move, thinking: joinThinking(...thoughts, ...said) };
  }
}
