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
import { streamText } from "ai";
import type { ModelRole } from "@/lib/foundation/config";
import { effectiveBaseUrl, notConfiguredMessage, type ModelSettings } from "./endpoint";
import { classifyModelError, type ModelCallContext } from "./classify-error";
import { ModelError } from "./errors";
import { DEFAULT_RETRY_POLICY, withRetries, type RetryPolicy } from "./retry";
import { collectReply, type ChatReply } from "./stream-reply";
import { callToolWithRepairs, type ToolCallHost } from "./call-tool";
import { EMPTY_DRAFT } from "./draft";
import type { ChatRequest, ResponsesRequest, RestartInfo, TextRequest, TextResult, ToolCallRequest, ToolCallResult } from "./model-requests";
import { normalizingFetch } from "./normalizing-fetch";
import { ToolProtocolChoice } from "./protocol-choice";
import type { CallOutcome } from "./role-health";
import type { ToolProtocol } from "./reply-calls";
import { classifyResponsesError, postResponses, type ResponsesReply } from "./responses";
import { splitThinking } from "./think-in-text";
import { toSdkTools, type ToolSpecs } from "./tool-schema";

export type { ChatReply } from "./stream-reply";
export type { ToolCallOf, ToolSpecs } from "./tool-schema";
export type { ModelSettings } from "./endpoint";
export type { ResponseItem, ResponsesReply } from "./responses";
export type { ChatRequest, ResponsesRequest, RestartInfo, TextRequest, TextResult, ToolCallRequest, ToolCallResult } from "./model-requests";

/** A reply this long is runaway output, not an answer (e.g. a model repeating itself). */
const DEFAULT_MAX_RESPONSE_CHARS = 100_000;

export interface ModelClientOptions extends Partial<RetryPolicy> {
  maxResponseChars?: number;
  /** Where a protocol switch is announced (once per model). */
  log?: (line: string) => void;
  /** Told how each callTool and text call ended (health's `models`). */
  onCallEnd?: (role: ModelRole, outcome: CallOutcome) => void;
  /** Jitter source; tests pass a constant. */
  random?: () => number;
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

  /**
   * This client with some roles' models replaced (a session's choice, made in the chat): the same
   * endpoint, key, retries and health, one request per call as before. Roles left out keep the
   * server's model. Returns this client itself when nothing is replaced.
   */
  withModels(models: Partial<Record<ModelRole, string>>): ModelClient {
    const chosen = Object.entries(models).filter(([, name]) => typeof name === "string" && name.length > 0);
    if (chosen.length === 0) return this;
    const view = Object.create(this) as ModelClient;
    // Only the names differ: the provider, protocol choice and health listeners are shared.
    (view as unknown as { settings: ModelSettings }).settings = { ...this.settings, byRole: { ...this.settings.byRole, ...Object.fromEntries(chosen) } };
    return view;
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
    return this.tracked(role, request, (tracked) => callToolWithRepairs<T>(this.toolCallHost(role), role, tracked), (r) => ({ textProtocol: r.protocol === "text", habits: r.habits }));
  }

  /** What callTool's loop (call-tool.ts) uses of this client for `role`; throws not_configured without a model. */
  private toolCallHost(role: ModelRole): ToolCallHost {
    return { chat: (request) => this.chat(role, request), protocols: this.protocols, model: this.context(role).model, maxResponseChars: this.maxResponseChars };
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

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
