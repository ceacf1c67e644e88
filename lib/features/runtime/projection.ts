/**
 * Event → ChatItem: what the chat shows for each log entry, typed (lib/foundation/protocol/chat-item.ts).
 * Events that only move state (delegation, state changes, null) project to null; the state
 * channel carries them instead. The compatible AgentMessage text form is written from the item
 * (lib/foundation/protocol/chat-text.ts), so the two can never disagree.
 */
import { agentCard, NOTEBOOK_AGENT } from "@/lib/foundation/protocol/agent-cards";
import type { AgentMessage } from "@/lib/foundation/protocol/agent-message";
import type { AgentName } from "@/lib/foundation/protocol/event-base";
import { isAction, type ActionEvent, type ActionOf, type ArgusEvent, type ObservationEvent, type ObservationOf } from "@/lib/foundation/protocol/events";
import { commandPointer, commandSummary, readCommand } from "@/lib/engines/computer/browser-command";
import { SafetyPayloadSchema, type BrowserActionWire } from "@/lib/foundation/protocol/browser-wire";
import { STOPPED_BY_PERSON_REASON } from "@/lib/foundation/protocol/event-builders";
import type { ChatItem, ChatItemOf, Speaker } from "@/lib/foundation/protocol/chat-item";
import { chatItemMessage } from "@/lib/foundation/protocol/chat-text";
import { eventMessage } from "./event-message";
import { choiceFromOldAnswer } from "./legacy-answer-choice";
import { cellOutputFromText } from "./legacy-cell-output";

/** Who speaks for an agent; unknown producers read as a plain assistant. */
function speakerOf(agent: AgentName | undefined, fallback: Speaker = "assistant"): Speaker {
  return agentCard(agent)?.name ?? fallback;
}

function projectMessage(e: ActionOf<"message">): ChatItem {
  const media = [...(e.args.image_urls ?? []), ...(e.args.file_urls ?? [])];
  const text = e.args.content;
  if (e.source === "user") {
    if (e.cause === undefined) return { type: "user", text, media };
    // A user message caused by an interaction is the answer to it; one logged before answers were
    // typed may hold the tool-review card's JSON as its text (read once, here).
    const choice = e.args.choice ?? choiceFromOldAnswer(text);
    return choice ? { type: "answer", text, media, choice } : { type: "answer", text, media };
  }
  return { type: "agent_message", speaker: speakerOf(e.agent), text, media };
}

function asText(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** A plan's instructions: a list, or (older plans) one string with a step a line. */
function instructionsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((s): s is string => typeof s === "string");
  return asText(value)
    .split("\n")
    .map((s) => s.trim())
    .filter(Boolean);
}

function projectFinish(e: ActionOf<"finish">): ChatItem | null {
  const { outputs } = e.args;
  // What a finish shows is the finishing agent's (agent-cards.ts).
  switch (agentCard(e.agent)?.finishShows) {
    case "plan":
      return { type: "plan", plan: asText(outputs.plan), instructions: instructionsOf(outputs.instructions), code: asText(outputs.code) };
    case "final_code":
      return { type: "final_code", code: asText(outputs.code), test: asText(outputs.test) };
    case "nothing":
      // A replying agent's answer is its own message event.
      return null;
    case "browser_done": {
      const answer = asText(outputs.answer) || e.args.final_thought;
      return { type: "browser_step", thinking: "", action: { tool: "done", summary: answer, pointer: null } };
    }
    default:
      return e.args.final_thought ? { type: "agent_message", speaker: "assistant", text: e.args.final_thought, media: [] } : null;
  }
}

function rejectReason(e: ActionOf<"reject">): string {
  const reason = e.args.outputs.reason;
  if (typeof reason === "string" && reason.trim()) return reason;
  if (e.args.thought.trim()) return e.args.thought;
  return "The agent could not complete this task.";
}

function browserStep(thinking: string, action: BrowserActionWire): ChatItem {
  return { type: "browser_step", thinking, action };
}

function projectBrowserAction(e: ActionOf<"browse"> | ActionOf<"browse_interactive">): ChatItem {
  if (e.action === "browse") return browserStep(e.args.thought, { tool: "goto", summary: `goto(${e.args.url})`, pointer: null });
  const command = readCommand(e.args.browser_actions);
  if (!command) return browserStep(e.args.thought, { tool: "computer", summary: "an unreadable step", pointer: null });
  const tool = command.tool === "invalid" ? "computer" : command.tool;
  return browserStep(e.args.thought, { tool, summary: commandSummary(command), pointer: commandPointer(command) });
}

function numberPair(value: unknown, fallback: [number, number]): [number, number] {
  return Array.isArray(value) && value.length === 2 && value.every((n) => typeof n === "number") ? [value[0] as number, value[1] as number] : fallback;
}

function pointOrNull(value: unknown): { x: number; y: number } | null {
  const p = value as { x?: unknown; y?: unknown } | null;
  return p && typeof p.x === "number" && typeof p.y === "number" ? { x: p.x, y: p.y } : null;
}

/** What a browsing step led to: the screen's facts, the words for the model, the screenshot as media. */
function projectBrowserObservation(e: ObservationOf<"browse">): ChatItemOf<"browser_screen"> {
  const x = e.extras as Record<string, unknown>;
  const media = Array.isArray(x.image_urls) ? x.image_urls.filter((u): u is string => typeof u === "string") : [];
  return {
    type: "browser_screen",
    screen: {
      url: e.extras.url,
      title: typeof x.title === "string" ? x.title : "",
      action: e.extras.last_browser_action,
      error: e.extras.last_browser_action_error,
      pointer: pointOrNull(x.pointer),
      viewport: numberPair(x.viewport, [1024, 768]),
      tabs: typeof x.tabs === "number" ? x.tabs : 1,
    },
    text: e.content,
    media,
  };
}

function projectInteraction(e: ActionOf<"interaction">): ChatItem {
  const { kind, prompt, options, payload } = e.args;
  switch (kind) {
    case "question":
      return { type: "question", prompt, options, payload };
    case "tool_review":
      return { type: "tool_review", prompt, options, payload };
    case "safety": {
      // Argus writes this payload itself; an unreadable one still asks, without the details.
      const parsed = SafetyPayloadSchema.safeParse(payload);
      return { type: "safety_check", prompt, options, payload: parsed.success ? parsed.data : null };
    }
  }
}

function projectAction(e: ActionEvent): ChatItem | null {
  switch (e.action) {
    case "message":
      return projectMessage(e);
    case "run_ipython":
      // A cell shows as its agent's when that agent tests in isolation, else as the notebook agent's.
      return { type: "cell", agent: agentCard(e.agent)?.cells === "isolated" ? agentCard(e.agent)!.name : NOTEBOOK_AGENT, thinking: e.args.thought, code: e.args.code };
    case "interaction":
      return projectInteraction(e);
    case "finish":
      return projectFinish(e);
    case "reject":
      return { type: "error", text: rejectReason(e) };
    case "task_tracking":
      return { type: "task_list", speaker: speakerOf(e.agent, NOTEBOOK_AGENT), command: e.args.command, tasks: e.args.task_list };
    case "browse":
    case "browse_interactive":
      if (agentCard(e.agent)?.shows === "pages") return projectBrowserAction(e);
      return { type: "notice", speaker: speakerOf(e.agent), text: eventMessage(e) };
    case "run":
    case "read":
    case "write":
      return { type: "notice", speaker: speakerOf(e.agent), text: eventMessage(e) };
    case "delegate":
    case "null":
      return null;
  }
}

function projectObservation(e: ObservationEvent): ChatItem | null {
  switch (e.observation) {
    case "run_ipython":
      // A cell recorded before outputs were typed has only its text: read once, here.
      return {
        type: "cell_output",
        output: e.extras.output ?? cellOutputFromText(e.content),
        media: e.extras.image_urls ?? [],
        ...(e.extras.stopped ? { stopped: true as const } : {}),
      };
    case "browse":
      if (agentCard(e.agent)?.shows === "pages") return projectBrowserObservation(e);
      return { type: "output", text: e.content, media: [] };
    case "run":
    case "read":
    case "write":
      return { type: "output", text: e.content, media: [] };
    case "error":
      return { type: "error", text: e.content };
    case "user_rejected":
      return { type: "error", text: e.content || "The person declined this step." };
    case "success":
      return { type: "result", text: e.content };
    case "null": {
      const mark = e.extras.redo;
      return mark ? { type: "redo", kind: mark.kind, from: mark.from, text: e.content } : null;
    }
    case "agent_state_changed":
      // The person's stop is shown where it happened; every other state lives on the state channel.
      return e.extras.agent_state === "stopped" && e.extras.reason === STOPPED_BY_PERSON_REASON ? { type: "stopped" } : null;
    case "delegate":
      return null;
  }
}

/** The chat item for an event, or null when the event is not shown in the chat. */
export function toChatItem(e: ArgusEvent): ChatItem | null {
  return isAction(e) ? projectAction(e) : projectObservation(e);
}

/** The event's compatible AgentMessage (written from its chat item), or null when the chat does not show it. */
export function toAgentMessage(e: ArgusEvent): AgentMessage | null {
  const item = toChatItem(e);
  return item === null ? null : chatItemMessage(item);
}
