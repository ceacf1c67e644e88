/** What the model client's calls take and give back (models.ts). */
import type { ModelMessage } from "ai";
import type { ReplyDraft } from "./draft";
import type { ToolProtocol } from "./reply-calls";
import type { ModelHabit } from "./tool-call-habits";
import type { ToolCallOf, ToolSpecs } from "./tool-schema";
import type { Usage } from "./usage";

/** Why a call is starting over; text streamed through `onText` so far belongs to the dropped reply. */
export interface RestartInfo {
  reason: "retry" | "repair";
  /** The attempt that was dropped (1-based, counted per reason). */
  attempt: number;
  /** What went wrong, for a log line or a "retrying…" hint. */
  message: string;
}

export interface ChatRequest {
  system?: string;
  messages: ModelMessage[];
  tools?: ToolSpecs;
  signal: AbortSignal;
  /** Receives text deltas live, as the model writes them. */
  onText?: (delta: string) => void;
  /**
   * Receives the whole reply so far after every delta (see draft.ts for what to show of it).
   * When the call starts over (retry or repair) it first receives an empty draft.
   */
  onDraft?: (draft: ReplyDraft) => void;
  onRestart?: (info: RestartInfo) => void;
  maxResponseChars?: number;
}

export interface ToolCallRequest<T extends ToolSpecs = ToolSpecs> extends ChatRequest {
  tools: T;
  /** Corrections sent back to the model before giving up (so maxRepairs + 1 replies at most). */
  maxRepairs?: number;
}

/** A validated call (`name`, and `args` typed as that tool's schema outputs them) and how it was made. */
export type ToolCallResult<T extends ToolSpecs = ToolSpecs> = ToolCallOf<T> & ToolCallDetails;

export interface ToolCallDetails {
  /** Text the model wrote alongside the call (often its reasoning), possibly empty. */
  text: string;
  /** Its reasoning: a reasoning field, text beside the call, or `<thinking>`; possibly empty. */
  thinking: string;
  /** Set when the reply made several calls and only the first was used; tell the model next turn. */
  notice?: string;
  /** How the call was made. */
  protocol: ToolProtocol;
  /** Summed over every reply, including the unusable ones. */
  usage: Usage;
  /** Replies it took: 1 when the first was good. */
  attempts: number;
  /** Model habits undone to read the replies (a fence around code, `<think>` in the text…). */
  habits: ModelHabit[];
}

export type TextRequest = Omit<ChatRequest, "tools">;

export interface ResponsesRequest {
  /** The Responses API body (input, tools, truncation…) without `model`: the role's model is set here. */
  body: Record<string, unknown>;
  signal: AbortSignal;
  onRestart?: (info: RestartInfo) => void;
}

export interface TextResult {
  text: string;
  usage: Usage;
  finishReason: string;
  /** The reply passed maxResponseChars and was cut there. */
  truncated: boolean;
  /** `thinking_in_text` when `<think>…</think>` was cut out of the answer. */
  habits: ModelHabit[];
}
