/**
 * Chat items for the client's unit tests: the typed items the server's projection makes, placed
 * in a transcript as StreamedMessages (with the compatible text form written from them, as the
 * server does).
 */
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";
import type { BrowserObservationWire, SafetyPayload } from "@/lib/foundation/protocol/browser-wire";
import type { CellOutput } from "@/lib/foundation/protocol/cell-output";
import { emptyCellOutput } from "@/lib/foundation/protocol/cell-output-text";
import type { CellAgent, ChatItem, Speaker } from "@/lib/foundation/protocol/chat-item";
import { chatItemMessage } from "@/lib/foundation/protocol/chat-text";

export function streamed(item: ChatItem, seq: number, extra: Partial<Pick<StreamedMessage, "runId" | "ts">> = {}): StreamedMessage {
  return { ...chatItemMessage(item), item, seq, runId: "r1", ts: "2025-01-01T00:00:00Z", ...extra };
}

/** A transcript builder: each call takes the next seq. */
export function transcript(start = 0) {
  let seq = start;
  return {
    msg: (item: ChatItem, extra: Partial<Pick<StreamedMessage, "runId" | "ts">> = {}) => streamed(item, ++seq, extra),
    reset: (to = 0) => void (seq = to),
  };
}

export const items = {
  user: (text: string, media: string[] = []): ChatItem => ({ type: "user", text, media }),
  answer: (text: string): ChatItem => ({ type: "answer", text, media: [] }),
  reply: (text: string, speaker: Speaker = "conversation", media: string[] = []): ChatItem => ({ type: "agent_message", speaker, text, media }),
  notice: (text: string, speaker: Speaker = "planner"): ChatItem => ({ type: "notice", speaker, text }),
  cell: (agent: CellAgent, thinking: string, code: string): ChatItem => ({ type: "cell", agent, thinking, code }),
  /** A cell's typed output; `printed` when all it has is what the cell printed. */
  cellOutput: (output: Partial<CellOutput> = {}, media: string[] = []): ChatItem => ({ type: "cell_output", output: { ...emptyCellOutput(), ...output }, media }),
  printed: (stdout: string, media: string[] = []): ChatItem => ({ type: "cell_output", output: { ...emptyCellOutput(), stdout }, media }),
  /** A command's or file operation's text output. */
  output: (text: string, media: string[] = []): ChatItem => ({ type: "output", text, media }),
  plan: (plan: string, instructions: string[] = [], code = ""): ChatItem => ({ type: "plan", plan, instructions, code }),
  finalCode: (code: string, test = ""): ChatItem => ({ type: "final_code", code, test }),
  taskList: (titles: string[]): ChatItem => ({ type: "task_list", speaker: "planner", command: "plan", tasks: titles.map((title, i) => ({ id: String(i + 1), title, status: "todo", notes: "" })) }),
  step: (summary: string, tool: "computer" | "goto" | "back" | "save_image" | "done" = "computer", pointer: { x: number; y: number } | null = null, thinking = "why"): ChatItem => ({
    type: "browser_step",
    thinking,
    action: { tool, summary, pointer },
  }),
  screen: (action: string, extra: Partial<BrowserObservationWire> = {}, media: string[] = [], text = "ok"): ChatItem => ({
    type: "browser_screen",
    screen: { url: "http://lab/", title: "Lab", action, error: "", pointer: null, viewport: [800, 600], tabs: 1, ...extra },
    text,
    media,
  }),
  question: (prompt: string, options: string[] = []): ChatItem => ({ type: "question", prompt, options, payload: null }),
  toolReview: (prompt: string, payload: unknown): ChatItem => ({ type: "tool_review", prompt, options: [], payload }),
  safety: (prompt: string, payload: SafetyPayload | null): ChatItem => ({ type: "safety_check", prompt, options: ["Confirm", "Refuse"], payload }),
  error: (text: string): ChatItem => ({ type: "error", text }),
  result: (text: string): ChatItem => ({ type: "result", text }),
};
