/**
 * Turns anything a model call can throw (SDK errors, HTTP statuses, dropped sockets, garbage
 * bodies, aborts) into one ModelError whose message says what happened and what to do.
 */
import { APICallError, RetryError } from "ai";
import type { ModelRole } from "@/lib/foundation/config";
import { modelEnvVar } from "./endpoint";
import { providerMessage, retryAfterFromHeaders } from "./error-response";
import { ModelError } from "./errors";
import { networkReason } from "./network-error";

/** What classification needs to write a useful sentence. */
export interface ModelCallContext {
  role: ModelRole;
  model: string;
  baseUrl: string;
  /** Whether an API key was configured: a 401 then means "wrong key", else "key needed". */
  hasApiKey?: boolean;
  /** Per-attempt timeout, for the timeout message. */
  timeoutMs?: number;
  /** Attempts made so far (1 = no retry yet). */
  attempts?: number;
}

/** Lower-case provider errors that mean "the prompt does not fit", whatever the status. */
const CONTEXT_PATTERN =
  /context[ _-]?length|context window|maximum context|too many tokens|prompt is too long|input is too long|exceeds? the (?:model'?s? )?(?:context|maximum)|reduce the length|string_above_max_length/i;

function errorName(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && typeof (error as { name?: unknown }).name === "string"
    ? (error as { name: string }).name
    : undefined;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === "string" ? error : String(error);
}

const seconds = (ms: number): string => `${Math.round((ms / 1000) * 10) / 10} s`;
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;
const withProvider = (text: string, detail: string | undefined): string =>
  detail === undefined ? text : `${text} The endpoint said: "${detail}"`;

function fromStatus(error: APICallError, ctx: Required<Pick<ModelCallContext, "role" | "model" | "baseUrl">> & ModelCallContext): ModelError {
  const status = error.statusCode as number;
  const detail = providerMessage(error.responseBody);
  const attempts = ctx.attempts ?? 1;
  const base = { role: ctx.role, model: ctx.model, httpStatus: status, attempts, cause: error };
  const haystack = `${error.responseBody ?? ""} ${error.message}`;

  if (status === 413 || CONTEXT_PATTERN.test(haystack)) {
    return new ModelError(
      "context_too_long",
      withProvider(
        `The conversation is too long for the model '${ctx.model}' (${status}). Start a new session or use a model with a larger context window.`,
        detail,
      ),
      base,
    );
  }
  if (status === 401) {
    const text = ctx.hasApiKey === false
      ? `The model endpoint at ${ctx.baseUrl} requires an API key (401). Set OPENAI_API_KEY.`
      : "The model endpoint rejected the API key (401). Check OPENAI_API_KEY.";
    return new ModelError("auth", text, base);
  }
  if (status === 403) {
    return new ModelError(
      "auth",
      withProvider(
        `The model endpoint refused access to '${ctx.model}' with this API key (403). Check OPENAI_API_KEY and the key's permissions.`,
        detail,
      ),
      base,
    );
  }
  if (status === 404) {
    return new ModelError(
      "unknown_model",
      `The model '${ctx.model}' does not exist on ${ctx.baseUrl} (404). Check ${modelEnvVar(ctx.role)} (or ARGUS_MODEL), and that OPENAI_BASE_URL ends in /v1.`,
      base,
    );
  }
  if (status === 408) {
    return new ModelError("timeout", `The model endpoint timed out the request (408).`, { ...base, retryable: true });
  }
  if (status === 429) {
    const retryAfterMs = retryAfterFromHeaders(error.responseHeaders);
    // OpenAI answers 429 for an exhausted quota as well; waiting does not help there.
    if (/insufficient_quota|exceeded your current quota|billing/i.test(haystack)) {
      return new ModelError(
        "rate_limited",
        withProvider("The model account is out of quota (429). Check the plan and billing of the API key.", detail),
        base,
      );
    }
    const retries = attempts - 1;
    const text = retries > 0
      ? `The model endpoint is rate limiting requests (429) and still was after ${retries} ${retries === 1 ? "retry" : "retries"}.`
      : "The model endpoint is rate limiting requests (429).";
    return new ModelError("rate_limited", text, { ...base, retryable: true, retryAfterMs });
  }
  if (status >= 500) {
    const retries = attempts - 1;
    const tail = retries > 0 ? ` ${plural(attempts, "attempt")} failed.` : "";
    return new ModelError(
      "server_error",
      withProvider(`The model endpoint at ${ctx.baseUrl} had an internal error (${status}).${tail}`, detail),
      { ...base, retryable: true, retryAfterMs: retryAfterFromHeaders(error.responseHeaders) },
    );
  }
  if (refusesTools(haystack)) {
    return new ModelError(
      "tools_unsupported",
      withProvider(
        `The model '${ctx.model}' is served without tool calling (${status}). Set ARGUS_TOOL_PROTOCOL_${ctx.role.toUpperCase()}=text (or auto) so it answers in tagged text.`,
        detail,
      ),
      base,
    );
  }
  return new ModelError(
    "bad_request",
    withProvider(`The model endpoint refused the request for '${ctx.model}' (${status}).`, detail),
    base,
  );
}

/**
 * What servers say when a model cannot take `tools`: Ollama "… does not support tools", vLLM
 * "\"auto\" tool choice requires --enable-auto-tool-choice …", llama.cpp "tools param requires
 * --jinja flag", and the generic "tool(s)/tool_choice … not supported".
 */
export function refusesTools(text: string): boolean {
  return (
    /does(?: not|n't) support tools/i.test(text) ||
    /tool[ _]?choice[^.]{0,80}(?:requires|not supported|unsupported)/i.test(text) ||
    /enable-auto-tool-choice/i.test(text) ||
    /tools?(?: param(?:eter)?s?)?[^.]{0,40}(?:requires --jinja|not supported|unsupported|not enabled)/i.test(text)
  );
}

type Base = { role: ModelRole; model: string; attempts: number; cause: unknown };

function closedMidReply(reason: string, ctx: ModelCallContext, base: Base): ModelError {
  return new ModelError(
    "server_error",
    `The model endpoint at ${ctx.baseUrl} closed the connection before the reply was complete (${reason}).`,
    { ...base, retryable: true },
  );
}

function notJson(ctx: ModelCallContext, base: Base): ModelError {
  return new ModelError("server_error", `The model endpoint at ${ctx.baseUrl} answered something that is not valid JSON.`, {
    ...base,
    retryable: true,
  });
}

/**
 * Map anything a model call can throw to a ModelError. Pure: no I/O, no clock except for an
 * HTTP-date Retry-After. Abort reasons decide cancel vs timeout: a TimeoutError is ours (the
 * per-attempt timer), an AbortError is the caller's.
 */
export function classifyModelError(error: unknown, ctx: ModelCallContext): ModelError {
  const attempts = ctx.attempts ?? 1;
  const base = { role: ctx.role, model: ctx.model, attempts, cause: error };

  if (error instanceof ModelError) return error;
  if (RetryError.isInstance(error)) return classifyModelError(error.lastError, ctx);

  const name = errorName(error);
  if (name === "TimeoutError") {
    const within = ctx.timeoutMs === undefined ? "in time" : `within ${seconds(ctx.timeoutMs)}`;
    return new ModelError(
      "timeout",
      `The model did not answer ${within} (${plural(attempts, "attempt")}).`,
      { ...base, retryable: true },
    );
  }
  if (name === "AbortError" || name === "ResponseAborted") {
    return new ModelError("cancelled", "The model call was cancelled.", base);
  }

  if (APICallError.isInstance(error)) {
    if (error.statusCode !== undefined && error.statusCode >= 400) return fromStatus(error, { ...ctx, attempts });
    const reason = networkReason(error);
    if (error.statusCode !== undefined) {
      // A 2xx whose body could not be read to the end: dropped mid-reply, or not JSON.
      if (reason !== undefined) return closedMidReply(reason.text, ctx, base);
      if (error.cause !== undefined) return classifyModelError(error.cause, ctx);
      return notJson(ctx, base);
    }
    return new ModelError(
      "unreachable",
      `Could not reach the model endpoint at ${ctx.baseUrl}: ${reason?.text ?? messageOf(error.cause ?? error)}.`,
      { ...base, retryable: true },
    );
  }

  const reason = networkReason(error);
  if (reason !== undefined) {
    // "terminated" / "other side closed" after the reply began: the endpoint dropped us mid-answer.
    const midStream = reason.code === undefined || reason.code === "UND_ERR_SOCKET";
    return midStream
      ? closedMidReply(reason.text, ctx, base)
      : new ModelError("unreachable", `Could not reach the model endpoint at ${ctx.baseUrl}: ${reason.text}.`, {
          ...base,
          retryable: true,
        });
  }
  if (error instanceof TypeError && /fetch failed|failed to fetch/i.test(error.message)) {
    return new ModelError(
      "unreachable",
      `Could not reach the model endpoint at ${ctx.baseUrl}: ${messageOf(error.cause ?? error)}.`,
      { ...base, retryable: true },
    );
  }

  // Unparseable bodies and chunks: a proxy's HTML page, a crashed server, a half-written line.
  if (
    name === "AI_JSONParseError" ||
    name === "AI_TypeValidationError" ||
    name === "AI_InvalidResponseDataError" ||
    name === "AI_EmptyResponseBodyError" ||
    error instanceof SyntaxError
  ) {
    return notJson(ctx, base);
  }
  // An error object sent inside the stream (OpenAI-style `{"error": {...}}` chunk).
  if (typeof error === "object" && error !== null && typeof (error as { message?: unknown }).message === "string") {
    const text = (error as { message: string }).message;
    if (CONTEXT_PATTERN.test(text)) {
      return new ModelError("context_too_long", withProvider(`The conversation is too long for the model '${ctx.model}'.`, text), base);
    }
    if (!(error instanceof Error)) {
      return new ModelError("server_error", withProvider("The model endpoint reported an error mid-reply.", text), {
        ...base,
        retryable: true,
      });
    }
  }
  return new ModelError("server_error", `The model call failed unexpectedly: ${messageOf(error)}`, base);
}
