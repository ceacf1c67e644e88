/**
 * Event → AgentMessage: what the chat shows for each log entry. Events that
 * only move state (delegation, state changes, null) project to null; the
 * state channel carries them instead.
 */
import { agentCard, NOTEBOOK_AGENT } from "@/lib/protocol/agent-cards";
import type { AgentMessage, AgentMessageRole } from "@/lib/protocol/agent-message";
import type { TaskItem } from "@/lib/protocol/action-args";
import type { AgentName } from "@/lib/protocol/event-base";
import { isAction, type ActionEvent, type ActionOf, type ArgusEvent, type ObservationEvent, type ObservationOf } from "@/lib/protocol/events";
import { commandPointer, commandSummary, readCommand } from "@/lib/computer/browser-command";
import type { BrowserActionWire, BrowserObservationWire } from "@/lib/protocol/browser-wire";
import { eventMessage } from "./event-message";

/**
 * A tag holding JSON, safe for the client's tag reader: `<` is written `\u003c` (the same JSON),
 * so no text inside (a page's title, a model's summary) can close the tag early.
 */
function tagged(tag: string, value: unknown): string {
  return `<${tag}>${JSON.stringify(value).replace(/</g, "\\u003c")}</${tag}>`;
}

/** Free text beside the tags (thinking, the model's words), with any of our tags in it defused. */
function plain(text: string): string {
  return text.replace(/<(\/?)(thinking|browser_action|browser_observation|interaction)>/gi, "<\u200b$1$2>");
}

function message(role: AgentMessageRole, content: string, media?: readonly string[] | null): AgentMessage {
  return media && media.length > 0 ? { role, content, media: [...media] } : { role, content };
}

/** The chat role an agent speaks with; unknown producers read as a plain assistant. */
function roleOf(agent: AgentName | undefined, fallback: AgentMessageRole = "assistant"): AgentMessageRole {
  return agentCard(agent)?.name ?? fallback;
}

function projectMessage(e: ActionOf<"message">): AgentMessage {
  const media = [...(e.args.image_urls ?? []), ...(e.args.file_urls ?? [])];
  let role: AgentMessageRole;
  if (e.source === "user") {
    // A user message caused by an interaction is the answer to it.
    role = e.cause === undefined ? "user" : "interaction_response";
  } else {
    role = roleOf(e.agent);
  }
  return message(role, e.args.content, media);
}

function pythonCell(thought: string, code: string): string {
  const cell = `<execute_python>\n${code}\n</execute_python>`;
  return thought ? `<thinking>${thought}</thinking>\n${cell}` : cell;
}

function asText(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function projectFinish(e: ActionOf<"finish">): AgentMessage | null {
  const { outputs } = e.args;
  // What a finish shows is the finishing agent's (agent-cards.ts); it speaks with its own role.
  const card = agentCard(e.agent);
  switch (card?.finishShows) {
    case "plan":
      return message(card.name, `<plan>${JSON.stringify(outputs)}</plan>`);
    case "final_code":
      return message(
        card.name,
        `<final_code>${asText(outputs.code)}</final_code>\n<final_test>${asText(outputs.test)}</final_test>`,
      );
    case "nothing":
      // A replying agent's answer is its own message event.
      return null;
    case "browser_done": {
      const answer = asText(outputs.answer) || e.args.final_thought;
      return message(card.name, tagged("browser_action", { tool: "done", summary: answer, pointer: null } satisfies BrowserActionWire));
    }
    default:
      return e.args.final_thought ? message("assistant", e.args.final_thought) : null;
  }
}

function rejectReason(e: ActionOf<"reject">): string {
  const reason = e.args.outputs.reason;
  if (typeof reason === "string" && reason.trim()) return reason;
  if (e.args.thought.trim()) return e.args.thought;
  return "The agent could not complete this task.";
}

/** A browsing step as the chat shows it: its thinking, then what it does (browser-wire.ts). */
function browserStep(role: AgentMessageRole, thought: string, wire: BrowserActionWire): AgentMessage {
  const body = tagged("browser_action", wire);
  return message(role, thought ? `<thinking>${plain(thought)}</thinking>\n${body}` : body);
}

function projectBrowserAction(role: AgentMessageRole, e: ActionOf<"browse"> | ActionOf<"browse_interactive">): AgentMessage {
  if (e.action === "browse") return browserStep(role, e.args.thought, { tool: "goto", summary: `goto(${e.args.url})`, pointer: null });
  const command = readCommand(e.args.browser_actions);
  if (!command) return browserStep(role, e.args.thought, { tool: "computer", summary: "an unreadable step", pointer: null });
  const tool = command.tool === "invalid" ? "computer" : command.tool;
  return browserStep(role, e.args.thought, { tool, summary: commandSummary(command), pointer: commandPointer(command) });
}

function numberPair(value: unknown, fallback: [number, number]): [number, number] {
  return Array.isArray(value) && value.length === 2 && value.every((n) => typeof n === "number") ? [value[0] as number, value[1] as number] : fallback;
}

function pointOrNull(value: unknown): { x: number; y: number } | null {
  const p = value as { x?: unknown; y?: unknown } | null;
  return p && typeof p.x === "number" && typeof p.y === "number" ? { x: p.x, y: p.y } : null;
}

/** What a browsing step led to: the screen's facts in a tag, the words for the model after it, the screenshot as media. */
function projectBrowserObservation(e: ObservationOf<"browse">): AgentMessage {
  const x = e.extras as Record<string, unknown>;
  const wire: BrowserObservationWire = {
    url: e.extras.url,
    title: typeof x.title === "string" ? x.title : "",
    action: e.extras.last_browser_action,
    error: e.extras.last_browser_action_error,
    pointer: pointOrNull(x.pointer),
    viewport: numberPair(x.viewport, [1024, 768]),
    tabs: typeof x.tabs === "number" ? x.tabs : 1,
  };
  const media = Array.isArray(x.image_urls) ? x.image_urls.filter((u): u is string => typeof u === "string") : [];
  return message("observation", `${tagged("browser_observation", wire)}\n${plain(e.content)}`, media);
}

const TASK_MARK: Record<TaskItem["status"], string> = { todo: "[ ]", in_progress: "[~]", done: "[x]" };

function checklist(e: ActionOf<"task_tracking">): string {
  if (e.args.command === "view" || e.args.task_list.length === 0) return "Checking the task list.";
  const lines = e.args.task_list.map((t) => {
    const notes = t.notes.trim() ? ` — ${t.notes.trim()}` : "";
    return `- ${TASK_MARK[t.status]} ${t.title}${notes}`;
  });
  return `Task list:\n${lines.join("\n")}`;
}

function projectAction(e: ActionEvent): AgentMessage | null {
  switch (e.action) {
    case "message":
      return projectMessage(e);
    case "run_ipython":
      // A cell shows as its agent's when that agent tests in isolation, else as the notebook agent's.
      return message(agentCard(e.agent)?.cells === "isolated" ? roleOf(e.agent) : NOTEBOOK_AGENT, pythonCell(e.args.thought, e.args.code));
    case "interaction": {
      const { kind, prompt, options, payload } = e.args;
      const body = payload === null ? { kind, prompt, options } : { kind, prompt, options, payload };
      return message("interaction", tagged("interaction", body));
    }
    case "finish":
      return projectFinish(e);
    case "reject":
      return message("error_observation", rejectReason(e));
    case "task_tracking":
      return message(roleOf(e.agent, NOTEBOOK_AGENT), checklist(e));
    case "browse":
    case "browse_interactive":
      if (agentCard(e.agent)?.shows === "pages") return projectBrowserAction(roleOf(e.agent), e);
      return message(roleOf(e.agent), eventMessage(e));
    case "run":
    case "read":
    case "write":
      return message(roleOf(e.agent), eventMessage(e));
    case "delegate":
    case "null":
      return null;
  }
}

function projectObservation(e: ObservationEvent): AgentMessage | null {
  switch (e.observation) {
    case "run_ipython":
      return message("observation", e.content, e.extras.image_urls);
    case "browse":
      if (agentCard(e.agent)?.shows === "pages") return projectBrowserObservation(e);
      return message("observation", e.content);
    case "run":
    case "read":
    case "write":
      return message("observation", e.content);
    case "error":
      return message("error_observation", e.content);
    case "user_rejected":
      return message("error_observation", e.content || "The person declined this step.");
    case "success":
      return message("final_observation", e.content);
    case "delegate":
    case "agent_state_changed":
    case "null":
      return null;
  }
}

/** The chat message for an event, or null when the event is not shown in the chat. */
export function toAgentMessage(e: ArgusEvent): AgentMessage | null {
  return isAction(e) ? projectAction(e) : projectObservation(e);
}
