/**
 * ChatItem → the vision-agent-compatible AgentMessage (`role`, tagged `content`, `media`): the
 * text form API clients, `update_callback` subscribers and the conversation agent's memory read.
 * Written from the typed item and never parsed back (the chat renders the item itself).
 * Type-only imports: the chat page uses taskListText without shipping zod.
 */
import type { AgentMessage, AgentMessageRole } from "./agent-message";
import type { ChatItem, ChatItemOf } from "./chat-item";
import type { TaskItem } from "./action-args";
import { cellOutputText } from "./cell-output-text";
import { agentShowing, BROWSING_AGENT } from "./agent-cards";

/**
 * A tag holding JSON: `<` is written `\u003c` (the same JSON), so no text inside (a page's
 * title, a model's summary) can close the tag early for a client that reads the tags.
 */
function tagged(tag: string, value: unknown): string {
  return `<${tag}>${JSON.stringify(value).replace(/</g, "\\u003c")}</${tag}>`;
}

/** Free text beside the tags (thinking, the model's words), with any of the JSON tags in it defused. */
function plain(text: string): string {
  return text.replace(/<(\/?)(thinking|browser_action|browser_observation|interaction)>/gi, "<\u200b$1$2>");
}

function message(role: AgentMessageRole, content: string, media?: readonly string[]): AgentMessage {
  return media && media.length > 0 ? { role, content, media: [...media] } : { role, content };
}

const TASK_MARK: Record<TaskItem["status"], string> = { todo: "[ ]", in_progress: "[~]", done: "[x]" };

/** A task list in words, one line a task (`- [x] title — notes`); the chat shows the same text. */
export function taskListText(item: Pick<ChatItemOf<"task_list">, "command" | "tasks">): string {
  if (item.command === "view" || item.tasks.length === 0) return "Checking the task list.";
  const lines = item.tasks.map((t) => {
    const notes = t.notes.trim() ? ` — ${t.notes.trim()}` : "";
    return `- ${TASK_MARK[t.status]} ${t.title}${notes}`;
  });
  return `Task list:\n${lines.join("\n")}`;
}

function interaction(kind: "question" | "tool_review" | "safety", prompt: string, options: string[], payload: unknown): AgentMessage {
  const body = payload === null || payload === undefined ? { kind, prompt, options } : { kind, prompt, options, payload };
  return message("interaction", tagged("interaction", body));
}

/** The text form of the stop notice. */
export const STOPPED_TEXT = "The person stopped this run.";

/** The AgentMessage a chat item reads as in the compatible text form. */
export function chatItemMessage(item: ChatItem): AgentMessage {
  switch (item.type) {
    case "user":
      return message("user", item.text, item.media);
    case "answer":
      return message("interaction_response", item.text, item.media);
    case "agent_message":
      return message(item.speaker, item.text, item.media);
    case "notice":
      return message(item.speaker, item.text);
    case "cell": {
      const cell = `<execute_python>\n${item.code}\n</execute_python>`;
      return message(item.agent, item.thinking ? `<thinking>${item.thinking}</thinking>\n${cell}` : cell);
    }
    case "cell_output":
      return message("observation", cellOutputText(item.output), item.media);
    case "output":
      return message("observation", item.text, item.media);
    case "plan":
      return message(agentShowing("plan"), `<plan>${JSON.stringify({ plan: item.plan, instructions: item.instructions, code: item.code })}</plan>`);
    case "final_code":
      return message(agentShowing("final_code"), `<final_code>${item.code}</final_code>\n<final_test>${item.test}</final_test>`);
    case "task_list":
      return message(item.speaker, taskListText(item));
    case "browser_step": {
      const body = tagged("browser_action", item.action);
      return message(BROWSING_AGENT, item.thinking ? `<thinking>${plain(item.thinking)}</thinking>\n${body}` : body);
    }
    case "browser_screen":
      return message("observation", `${tagged("browser_observation", item.screen)}\n${plain(item.text)}`, item.media);
    case "question":
      return interaction("question", item.prompt, item.options, item.payload);
    case "tool_review":
      return interaction("tool_review", item.prompt, item.options, item.payload);
    case "safety_check":
      return interaction("safety", item.prompt, item.options, item.payload);
    case "error":
      return message("error_observation", item.text);
    case "result":
      return message("final_observation", item.text);
    case "redo":
      return message("assistant", item.text);
    case "stopped":
      // Worded for every reader of the text form, the conversation model's memory included.
      return message("final_observation", STOPPED_TEXT);
  }
}
