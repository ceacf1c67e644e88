/**
 * Retries for one model call. The AI SDK's own retries are off (maxRetries: 0) because they
 * cannot tell a stalled server from a cancelled run, ignore Retry-After caps we want, and hide
 * the attempt count the person's error message needs.
 *
 * Policy: transient failures (429, 5xx, 408, network, per-attempt timeout) are retried with
 * exponential backoff and jitter, or after the server's Retry-After when it sent one (capped).
 * Anything else (400/401/403/404/413, context length, bad output) fails at once, and nothing
 * is retried once the caller's signal has aborted.
 */
import type { ModelError } from "./errors";

export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** Silence allowed per attempt (before the first byte and between chunks). */
  timeoutMs: number;
  /** First backoff step; doubled per retry. */
  baseDelayMs: number;
  /** Backoff ceiling before jitter. */
  maxDelayMs: number;
  /** Ceiling on a server-requested wait, so a "Retry-After: 3600" cannot park a run for an hour. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 3,
  timeoutMs: 120_000,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 30_000,
};

/** Exponential backoff with "equal jitter": half fixed, half random, so retries spread out. */
export function backoffMs(retryIndex: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retryIndex);
  return Math.round(step / 2 + (random() * step) / 2);
}

/** How long to wait before retry number `retryIndex` (0-based) after `error`. */
export function retryDelayMs(
  error: ModelError,
  retryIndex: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  if (error.retryAfterMs !== undefined) return Math.min(error.retryAfterMs, policy.maxRetryAfterMs);
  return backoffMs(retryIndex, policy, random);
}

/** Whether to try again: transient kind, retries left, and the caller still wants the answer. */
function shouldRetry(error: ModelError, attemptsMade: number, policy: RetryPolicy, callerAborted: boolean): boolean {
  return error.retryable && !callerAborted && attemptsMade <= policy.maxRetries;
}

export interface AttemptHandle {
  /** Aborts on the caller's cancel or after `timeoutMs` of silence; pass it to the HTTP call. */
  signal: AbortSignal;
  /** Call on every piece of progress (a stream chunk) to push the silence timer back. */
  touch: () => void;
  /** 1 for the first attempt. */
  attempt: number;
}

/**
 * A per-attempt signal: the caller's signal plus an inactivity timer. The timer aborts with a
 * TimeoutError DOMException, which classification reads as "timeout" (retryable), while the
 * caller's abort reads as "cancelled" (final).
 */
export function attemptSignal(caller: AbortSignal, timeoutMs: number) {
  const idle = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      idle.abort(new DOMException(`No answer from the model within ${timeoutMs} ms`, "TimeoutError"));
    }, timeoutMs);
  };
  arm();
  return {
    signal: AbortSignal.any([caller, idle.signal]),
    touch: () => {
      if (!idle.signal.aborted) arm();
    },
    timedOut: () => idle.signal.aborted,
    timeoutReason: (): unknown => idle.signal.reason,
    dispose: () => {
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}

/** setTimeout as a promise that rejects with the signal's reason as soon as it aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

interface RetryInfo {
  /** The attempt that failed (1-based). */
  attempt: number;
  error: ModelError;
  delayMs: number;
}

export interface WithRetriesOptions {
  signal: AbortSignal;
  policy: RetryPolicy;
  /** Turns whatever an attempt threw into a ModelError; `attempts` is how many were made. */
  classify: (error: unknown, attempts: number) => ModelError;
  /** Called before waiting for a retry, e.g. so a live display can drop a half-streamed reply. */
  onRetry?: (info: RetryInfo) => void;
  random?: () => number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

const callerAbort = () => new DOMException("The model call was cancelled", "AbortError");

export async function withRetries<T>(run: (attempt: AttemptHandle) => Promise<T>, options: WithRetriesOptions): Promise<T> {
  const { signal, policy, classify } = options;
  const wait = options.sleep ?? sleep;
  for (let attempt = 1; ; attempt++) {
    if (signal.aborted) throw classify(callerAbort(), attempt - 1);
    const handle = attemptSignal(signal, policy.timeoutMs);
    let error: ModelError;
    try {
      return await run({ signal: handle.signal, touch: handle.touch, attempt });
    } catch (thrown) {
      // Decide by which signal fired, not by the thrown value: fetch, the SDK and undici each
      // wrap aborts differently, but the signals say unambiguously who stopped the call.
      if (signal.aborted) throw classify(callerAbort(), attempt);
      error = classify(handle.timedOut() ? handle.timeoutReason() : thrown, attempt);
    } finally {
      handle.dispose();
    }
    if (!shouldRetry(error, attempt, policy, signal.aborted)) throw error;
    const delayMs = retryDelayMs(error, attempt - 1, policy, options.random);
    options.onRetry?.({ attempt, error, delayMs });
    try {
      await wait(delayMs, signal);
    } catch {
      throw classify(callerAbort(), attempt);
    }
  }
}
