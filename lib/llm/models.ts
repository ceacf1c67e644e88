/**
 * The one way Argus talks to a model: any OpenAI-compatible Chat Completions endpoint (OpenAI,
 * Ollama, vLLM, LM Studio) through the AI SDK, streamed so the chat shows text as it is written.
 *
 * Three calls, by what the agent needs:
 * - `chat`: one reply (text and/or tool calls), retried on transient failures;
 * - `callTool`: exactly one valid tool call, with bad output fed back to the model (DESIGN §4);
 * - `text`: a plain answer, for the vqa and suggestion roles.
 *
 * And one outside Chat Completions: `responses`, a Responses API request for the browsing agent
 * when its model is OpenAI's computer-use model (same endpoint, key, retries and errors).
 */
import { createOpenAICompatible, type OpenAICompatibleProvider } from "@ai-sdk/openai-compatible";
import { streamText, type ModelMessage } from "ai";
import type { ModelRole } from "@/lib/config";
import { effectiveBaseUrl, notConfiguredMessage, type ModelSettings } from "./endpoint";
import { classifyModelError, type ModelCallContext } from "./classify-error";
import { ModelError } from "./errors";
import { DEFAULT_RETRY_POLICY, withRetries, type RetryPolicy } from "./retry";
import { collectReply, type ChatReply } from "./stream-reply";
import { EMPTY_DRAFT, type ReplyDraft } from "./draft";
import { normalizingFetch } from "./normalizing-fetch";
import { ToolProtocolChoice } from "./protocol-choice";
import type { CallOutcome } from "./role-health";
import { readReplyCalls, type ToolProtocol } from "./reply-calls";
import { classifyResponsesError, postResponses, type ResponsesReply } from "./responses";
import { textProtocolInstructions } from "./tagged-calls";
import { checkToolReply, ignoredCallsNotice, repairMessages } from "./tool-call";
import type { ModelHabit } from "./tool-call-habits";
import { splitThinking } from "./think-in-text";
import { draftTags, toSdkTools, type ToolCallOf, type ToolSpecs } from "./tool-schema";
import { sumUsage, type Usage } from "./usage";

export type { ChatReply } from "./stream-reply";
export type { ToolCallOf, ToolSpecs } from "./tool-schema";
export type { ModelSettings } from "./endpoint";
export type { ResponseItem, ResponsesReply } from "./responses";

/** A reply this long is runaway output, not an answer (e.g. a model repeating itself). */
const DEFAULT_MAX_RESPONSE_CHARS = 100_000;
const DEFAULT_MAX_REPAIRS = 2;

export interface ModelClientOptions extends Partial<RetryPolicy> {
  maxResponseChars?: number;
  /** Where a protocol switch is announced (once per model). */
  log?: (line: string) => void;
  /** Told how each callTool and text call ended (health's `models`). */
  onCallEnd?: (role: ModelRole, outcome: CallOutcome) => void;
  /** Jitter source; tests pass a constant. */
  random?: () => number;
}

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

export class ModelClient {
  readonly baseUrl: string;
  private readonly settings: ModelSettings;
  private readonly policy: RetryPolicy;
  private readonly maxResponseChars: number;
  private readonly random?: () => number;
  private readonly provider: OpenAICompatibleProvider;
  private readonly protocols: ToolProtocolChoice;
  private readonly onCallEnd?: (role: ModelRole, outcome: CallOutcome) => void;

  constructor(settings: ModelSettings, options: ModelClientOptions = {}) {
    this.settings = settings;
    this.baseUrl = effectiveBaseUrl(settings);
    const { maxResponseChars, random, log, onCallEnd, ...policy } = options;
    this.onCallEnd = onCallEnd;
    this.protocols = new ToolProtocolChoice(settings.protocolByRole, log);
    this.policy = {
      ...DEFAULT_RETRY_POLICY,
      ...(settings.timeoutMs === undefined ? {} : { timeoutMs: settings.timeoutMs }),
      ...(settings.maxRetries === undefined ? {} : { maxRetries: settings.maxRetries }),
      ...definedOnly(policy),
    };
    this.maxResponseChars = maxResponseChars ?? DEFAULT_MAX_RESPONSE_CHARS;
    this.random = random;
    // Chat Completions (not the Responses API), which every local server implements.
    this.provider = createOpenAICompatible({
      name: "argus",
      baseURL: this.baseUrl,
      ...(settings.apiKey === null ? {} : { apiKey: settings.apiKey }),
      includeUsage: true,
      fetch: normalizingFetch(),
    });
  }

  /** The model name a role uses, or null when none is configured. */
  modelFor(role: ModelRole): string | null {
    return this.settings.byRole[role] ?? null;
  }

  /** Whether `role` can be called; the message says what to set when not. */
  status(role: ModelRole): { ok: true } | { ok: false; message: string } {
    const message = notConfiguredMessage(this.settings, role);
    return message === undefined ? { ok: true } : { ok: false, message };
  }

  /** One reply, streamed, retried on transient failures. Tool calls are reported, never run. */
  async chat(role: ModelRole, request: ChatRequest): Promise<ChatReply> {
    const ctx = this.context(role);
    const maxResponseChars = request.maxResponseChars ?? this.maxResponseChars;
    const tools = request.tools === undefined ? undefined : toSdkTools(request.tools);
    return withRetries(
      async ({ signal, touch }) => {
        // A runaway reply is cut by aborting its request; that is not a cancel or a timeout.
        const overflow = new AbortController();
        const abortSignal = AbortSignal.any([signal, overflow.signal]);
        const result = streamText({
          model: this.provider.chatModel(ctx.model),
          system: request.system,
          messages: request.messages,
          ...(tools === undefined ? {} : { tools, toolChoice: "required" as const }),
          maxRetries: 0,
          abortSignal,
          // Raw chunks carry OpenAI's `delta.refusal`, which the provider does not map.
          includeRawChunks: true,
          // Errors arrive as stream parts and are classified there; the default logs them.
          onError: () => {},
        });
        return collectReply(result.fullStream, {
          onText: request.onText,
          onDraft: request.onDraft,
          touch,
          maxResponseChars,
          onOverflow: () => overflow.abort(),
          abortReason: () => signal.reason,
        });
      },
      {
        signal: request.signal,
        policy: this.policy,
        classify: (error, attempts) => classifyModelError(error, { ...ctx, attempts }),
        onRetry: ({ attempt, error }) => {
          request.onDraft?.(EMPTY_DRAFT);
          request.onRestart?.({ reason: "retry", attempt, message: error.message });
        },
        random: this.random,
      },
    );
  }

  /** The protocol `role` uses now (auto may have moved its model to text). */
  protocolFor(role: ModelRole): ToolProtocol {
    const model = this.settings.byRole[role] ?? null;
    return model === null ? "native" : this.protocols.current(role, model);
  }

  /**
   * Exactly one call of one of `tools`, with arguments valid for its schema, made natively or
   * written as tagged text (the role's tool protocol). An unusable reply is shown back to the
   * model with a correction, at most `maxRepairs` times; then `bad_output`.
   */
  async callTool<T extends ToolSpecs>(role: ModelRole, request: ToolCallRequest<T>): Promise<ToolCallResult<T>> {
    return this.tracked(role, request, (tracked) => this.callToolUntracked<T>(role, tracked), (r) => ({ textProtocol: r.protocol === "text", habits: r.habits }));
  }

  /** Runs one call with its restarts watched, and reports how it ended to `onCallEnd`. */
  private async tracked<R, Q extends { onRestart?: (info: RestartInfo) => void }>(
    role: ModelRole,
    request: Q,
    call: (request: Q) => Promise<R>,
    how: (result: R) => Pick<CallOutcome, "textProtocol" | "habits">,
  ): Promise<R> {
    const seen = { retried: false, repaired: false };
    const watched = {
      ...request,
      onRestart: (info: RestartInfo) => {
        if (info.reason === "retry") seen.retried = true;
        else seen.repaired = true;
        request.onRestart?.(info);
      },
    };
    try {
      const result = await call(watched);
      const { textProtocol, habits } = how(result);
      this.onCallEnd?.(role, { ok: true, ...seen, textProtocol, ...(habits !== undefined && habits.length > 0 ? { habits } : {}) });
      return result;
    } catch (error) {
      this.onCallEnd?.(role, { ok: false, ...seen, textProtocol: false, ...(error instanceof ModelError ? { error } : {}) });
      throw error;
    }
  }

  private async callToolUntracked<T extends ToolSpecs>(role: ModelRole, request: ToolCallRequest<T>): Promise<ToolCallResult<T>> {
    const maxRepairs = request.maxRepairs ?? DEFAULT_MAX_REPAIRS;
    const maxResponseChars = request.maxResponseChars ?? this.maxResponseChars;
    const model = this.context(role).model;
    const messages = [...request.messages];
    const usages: Usage[] = [];
    let protocol = this.protocols.current(role, model);
    const habits: ModelHabit[] = [];
    // Drafts of a tagged reply are read by the offered tools' tags (tool-schema.ts's `draft`).
    const tags = draftTags(request.tools);
    const onDraft = request.onDraft && ((draft: ReplyDraft) => request.onDraft!({ ...draft, tags }));
    // Plain text where a call was due is corrected once: a model that answers in text twice will go on doing so.
    let textOnlyCorrected = false;
    for (let attempt = 1; ; ) {
      let reply: ChatReply;
      try {
        reply = await this.chat(role, { ...request, ...protocolRequest(request, protocol), onDraft, messages, maxResponseChars });
      } catch (error) {
        // A server without tool calling says so up front; under auto that is a switch, not a failure.
        if (protocol === "native" && error instanceof ModelError && error.kind === "tools_unsupported" && this.protocols.switchToText(role, model, "tools_rejected")) {
          protocol = "text";
          continue;
        }
        throw withUsage(error, usages);
      }
      usages.push(reply.usage);
      const read = readReplyCalls(reply, request.tools);
      for (const habit of read.habits) if (!habits.includes(habit)) habits.push(habit);
      if (protocol === "native" && read.writtenAsText && this.protocols.switchToText(role, model, "answered_in_text")) protocol = "text";
      const verdict = checkToolReply(reply, read, request.tools, maxResponseChars, protocol);
      if (verdict.ok) {
        const notice = ignoredCallsNotice(verdict.name, verdict.ignored);
        // checkToolReply validated args with the schema of the tool `name`: the pair is a ToolCallOf<T>.
        const call = { name: verdict.name, args: verdict.args } as ToolCallOf<T>;
        return {
          ...call,
          text: reply.text,
          thinking: read.thinking,
          ...(notice === undefined ? {} : { notice }),
          protocol,
          usage: sumUsage(...usages),
          attempts: attempt,
          habits,
        };
      }
      if (verdict.kind === "no_call" && textOnlyCorrected) {
        const said = clipLine(splitThinking(reply.text).rest.trim() || reply.text.trim());
        throw new ModelError(
          "bad_output",
          `The ${role} model (${model}) answered in plain text instead of calling one of its tools (${Object.keys(request.tools).join(", ")}), twice in a row, even after being told to call one. It said: "${said}"`,
          { role, model, attempts: attempt, usage: sumUsage(...usages) },
        );
      }
      if (verdict.kind === "no_call") textOnlyCorrected = true;
      if (attempt > maxRepairs) {
        throw new ModelError(
          "bad_output",
          `The ${role} model (${model}) gave an unusable reply ${attempt} ${attempt === 1 ? "time" : "times in a row"}; the last time, ${verdict.problem}.`,
          { role, model, attempts: attempt, usage: sumUsage(...usages) },
        );
      }
      request.onDraft?.(EMPTY_DRAFT);
      request.onRestart?.({ reason: "repair", attempt, message: verdict.problem });
      messages.push(...repairMessages(reply, read, verdict));
      attempt++;
    }
  }

  /** A plain-text answer (vqa, suggestion). A runaway reply is cut at maxResponseChars. */
  async text(role: ModelRole, request: TextRequest): Promise<TextResult> {
    return this.tracked(role, request, (tracked) => this.textUntracked(role, tracked), (r) => ({ textProtocol: false, habits: r.habits }));
  }

  private async textUntracked(role: ModelRole, request: TextRequest): Promise<TextResult> {
    const reply = await this.chat(role, request);
    const limit = request.maxResponseChars ?? this.maxResponseChars;
    // Thinking written in the text (`<think>…</think>`) is never part of the answer.
    const split = splitThinking(reply.text);
    const text = (split.spans.length > 0 ? split.rest.trim() : reply.text) || reply.refusal || "";
    return {
      habits: split.spans.length > 0 ? ["thinking_in_text"] : [],
      text: reply.truncated ? text.slice(0, limit) : text,
      usage: reply.usage,
      finishReason: reply.finishReason,
      truncated: reply.truncated,
    };
  }

  /**
   * One Responses API request (`POST {baseURL}/responses`, not streamed), retried and classified
   * like a chat call, and reported to `onCallEnd` so health sees the role's real calls.
   */
  async responses(role: ModelRole, request: ResponsesRequest): Promise<ResponsesReply> {
    return this.tracked(role, request, (tracked) => this.responsesUntracked(role, tracked), () => ({ textProtocol: false, habits: [] }));
  }

  private async responsesUntracked(role: ModelRole, request: ResponsesRequest): Promise<ResponsesReply> {
    const ctx = this.context(role);
    const target = { baseUrl: this.baseUrl, apiKey: this.settings.apiKey };
    return withRetries(({ signal }) => postResponses(target, { ...request.body, model: ctx.model }, signal), {
      signal: request.signal,
      policy: this.policy,
      classify: (error, attempts) => classifyResponsesError(error, { ...ctx, attempts }),
      onRetry: ({ attempt, error }) => request.onRestart?.({ reason: "retry", attempt, message: error.message }),
      random: this.random,
    });
  }

  private context(role: ModelRole): ModelCallContext {
    const problem = notConfiguredMessage(this.settings, role);
    const model = this.settings.byRole[role] ?? null;
    if (problem !== undefined || model === null) {
      throw new ModelError("not_configured", problem ?? `No model is configured for the ${role}.`, { role, model });
    }
    return {
      role,
      model,
      baseUrl: this.baseUrl,
      hasApiKey: this.settings.apiKey !== null,
      timeoutMs: this.policy.timeoutMs,
    };
  }
}

/** Native: the tools go in the request. Text: they are described in the system prompt instead. */
function protocolRequest(request: ToolCallRequest, protocol: ToolProtocol): Pick<ChatRequest, "system" | "tools"> {
  if (protocol === "native") return { system: request.system, tools: request.tools };
  const instructions = textProtocolInstructions(request.tools);
  return { system: request.system ? `${request.system}\n\n${instructions}` : instructions, tools: undefined };
}

/** What a model said, on one line and short enough for an error card. */
function clipLine(text: string, limit = 300): string {
  const line = text.replace(/\s+/g, " ");
  return line.length <= limit ? line : `${line.slice(0, limit)}…`;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** A transport failure mid-repair still spent the earlier replies' tokens; keep them on the error. */
function withUsage(error: unknown, usages: Usage[]): unknown {
  if (!(error instanceof ModelError) || usages.length === 0) return error;
  return new ModelError(error.kind, error.message, {
    role: error.role,
    model: error.model,
    httpStatus: error.httpStatus,
    retryable: error.retryable,
    retryAfterMs: error.retryAfterMs,
    attempts: error.attempts,
    usage: sumUsage(...usages),
    cause: error.cause,
  });
}
