import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";
import { agentCard } from "@/lib/foundation/protocol/agent-cards";
import { cellOutputText } from "@/lib/foundation/protocol/cell-output-text";
import type { ChatItem } from "@/lib/foundation/protocol/chat-item";
import { taskListText } from "@/lib/foundation/protocol/chat-text";
import { stepNumbers, stepTitle } from "@/lib/foundation/protocol/step-numbers";

/**
 * A chat as Markdown, for `GET /api/sessions/:id/markdown`: what the person asked, what Argus
 * answered, each step with its code and output, and the pictures as relative links into the zip's
 * `images/` folder (chat-export.ts puts the files there). Pure: the transcript and the pictures'
 * paths in, text out.
 */
export interface MarkdownPicture {
  /** Inside the zip, e.g. `images/03-coins.png`. */
  path: string;
  alt: string;
}

const MEDIA_TYPES = new Set<ChatItem["type"]>(["user", "answer", "agent_message", "cell_output", "output", "browser_screen"]);

/** Every picture the chat shows, each once, in the order it first appears. */
export function pictureUrls(messages: readonly StreamedMessage[]): string[] {
  const seen = new Set<string>();
  for (const m of messages) {
    if (MEDIA_TYPES.has(m.item.type) && "media" in m.item) for (const url of m.item.media) seen.add(url);
  }
  return [...seen];
}

/** A code fence longer than any run of backticks inside, so the block cannot be closed early. */
export function fenced(text: string, lang = ""): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${text.replace(/\n+$/, "")}\n${fence}`;
}

const quote = (text: string) =>
  text
    .trim()
    .split("\n")
    .map((l) => (l ? `> ${l}` : ">"))
    .join("\n");

function pictures(urls: readonly string[], found: ReadonlyMap<string, MarkdownPicture>): string {
  // A link target with spaces or parentheses is wrapped in <…> so every Markdown reader takes it whole.
  return urls
    .map((url) => {
      const p = found.get(url);
      return p ? `![${p.alt.replace(/[[\]]/g, "")}](<${p.path}>)` : "*(a picture that is no longer stored)*";
    })
    .join("\n\n");
}

function options(list: readonly string[]): string {
  return list.length ? `\n\n${list.map((o) => `- ${o}`).join("\n")}` : "";
}

function section(m: StreamedMessage, step: number, found: ReadonlyMap<string, MarkdownPicture>): string | null {
  const item = m.item;
  const withPictures = (text: string, media: readonly string[]) => [text, media.length ? pictures(media, found) : ""].filter(Boolean).join("\n\n");
  switch (item.type) {
    case "user":
      return withPictures(`## You\n\n${item.text.trim()}`, item.media);
    case "answer":
      return withPictures(`**Your answer:** ${item.text.trim()}`, item.media);
    case "agent_message": {
      const replies = item.speaker === "assistant" || agentCard(item.speaker)?.shows === "reply";
      const head = replies ? `## Argus\n\n${item.text.trim()}` : `**${agentCard(item.speaker)?.label ?? item.speaker}:** ${item.text.trim()}`;
      return withPictures(head, item.media);
    }
    case "notice":
      return `*${item.text.trim()}*`;
    case "cell": {
      const thinking = item.thinking.trim() ? `${quote(item.thinking)}\n\n` : "";
      return `### ${stepTitle(item.agent, step)}\n\n${thinking}${fenced(item.code, "python")}`;
    }
    case "cell_output":
      return withPictures(fenced(cellOutputText(item.output), "text"), item.media);
    case "output":
      return withPictures(item.text.trim() ? fenced(item.text, "text") : "", item.media) || null;
    case "plan":
      return `### Plan\n\n${item.plan.trim()}${options(item.instructions)}`;
    case "final_code":
      return `### Final code\n\n${fenced(item.code, "python")}${item.test.trim() ? `\n\nTest:\n\n${fenced(item.test, "python")}` : ""}`;
    case "task_list":
      return taskListText(item);
    case "browser_step":
      return `### Browser: \`${item.action.summary.replace(/`/g, "'")}\``;
    case "browser_screen": {
      const where = item.screen.title || item.screen.url ? `Page: ${item.screen.title || item.screen.url}` : "";
      const problem = item.screen.error ? `\n\n${quote(item.screen.error)}` : "";
      return withPictures(`${where}${problem}`.trim(), item.media) || null;
    }
    case "question":
    case "tool_review":
    case "safety_check":
      return `**Argus asked:** ${item.prompt.trim()}${options(item.options)}`;
    case "error":
      return `> **Error:** ${item.text.trim().replace(/\n/g, "\n> ")}`;
    case "result":
      return item.text.trim() ? `### Result\n\n${item.text.trim()}` : null;
    case "stopped":
      return "*You stopped the run here.*";
    case "redo":
      // A retry, regenerate or edit mark: what the chat says there, kept as a note in the export.
      return item.text.trim() ? `*${item.text.trim()}*` : null;
  }
}

export function chatMarkdown(chat: { title: string | null; exportedAt: string; messages: readonly StreamedMessage[]; pictures: ReadonlyMap<string, MarkdownPicture> }): string {
  const numbers = stepNumbers(chat.messages);
  const parts = [`# ${(chat.title ?? "Argus chat").trim()}`, `*Exported from Argus on ${chat.exportedAt.slice(0, 10)}.*`];
  for (const m of chat.messages) {
    const text = section(m, numbers.get(m.seq) ?? 1, chat.pictures);
    if (text) parts.push(text);
  }
  return `${parts.join("\n\n")}\n`;
}
