/**
 * The vision service's typed failures. Every message is written for the person
 * (and the planner) reading it: what went wrong and what to do about it, never a
 * stack trace. The HTTP routes and the kernel bridge map `code` to their own
 * statuses (bad_params/bad_image/unknown_tool → 400/404, busy → 429 with
 * Retry-After, unavailable → 503, aborted → the caller went away, failed → 500).
 */
export type VisionErrorCode = "unknown_tool" | "bad_params" | "bad_image" | "busy" | "aborted" | "unavailable" | "failed";

export class VisionError extends Error {
  readonly code: VisionErrorCode;
  /** The parameter at fault, for bad_params (e.g. "labels", "box_threshold"). */
  readonly field?: string;
  /** For busy: when trying again is likely to find room. */
  readonly retryAfterSeconds?: number;

  constructor(
    code: VisionErrorCode,
    message: string,
    options?: { field?: string; retryAfterSeconds?: number; cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "VisionError";
    this.code = code;
    this.field = options?.field;
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }
}

export function isVisionError(value: unknown): value is VisionError {
  return value instanceof VisionError;
}
