/**
 * Model-call failures, classified once (classify-error.ts) so that every caller (agents, the
 * retry loop, the chat) sees one typed error with a sentence a person can act on, never an SDK
 * stack trace.
 */
import type { ModelRole } from "@/lib/foundation/config";
import { ArgusError, type ErrorCode } from "@/lib/foundation/errors";
import type { Usage } from "./usage";

export type ModelErrorKind =
  | "not_configured"
  | "auth"
  | "unknown_model"
  | "rate_limited"
  | "context_too_long"
  /** The endpoint refused a request because it carried `tools` (a model served without tool calling). */
  | "tools_unsupported"
  /** Any other 4xx: the endpoint understood the request and refused it. */
  | "bad_request"
  | "unreachable"
  | "timeout"
  | "server_error"
  | "bad_output"
  | "cancelled";

/** The HTTP-facing code of each kind: upstream trouble is 503, our own cancel is a conflict. */
const CODES: Record<ModelErrorKind, ErrorCode> = {
  not_configured: "unavailable:model",
  auth: "unavailable:model",
  unknown_model: "unavailable:model",
  rate_limited: "unavailable:model",
  context_too_long: "payload_too_large:model",
  tools_unsupported: "bad_request:model",
  bad_request: "bad_request:model",
  unreachable: "unavailable:model",
  timeout: "unavailable:model",
  server_error: "unavailable:model",
  bad_output: "internal:model",
  cancelled: "conflict:model",
};

export interface ModelErrorDetails {
  role?: ModelRole;
  model?: string | null;
  /** HTTP status the endpoint answered with, when there was one. */
  httpStatus?: number;
  /** Whether another attempt could succeed (429, 5xx, network, timeout). */
  retryable?: boolean;
  /** What the server asked for in Retry-After / retry-after-ms, in milliseconds. */
  retryAfterMs?: number;
  /** Attempts made before giving up (transport retries, or repairs for bad_output). */
  attempts?: number;
  /** Tokens spent before failing (e.g. on the unusable replies of a bad_output), for budgets. */
  usage?: Usage;
  cause?: unknown;
}

export class ModelError extends ArgusError {
  readonly kind: ModelErrorKind;
  readonly role?: ModelRole;
  readonly model?: string | null;
  readonly httpStatus?: number;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  readonly attempts: number;
  readonly usage?: Usage;

  constructor(kind: ModelErrorKind, message: string, details: ModelErrorDetails = {}) {
    super(CODES[kind], message, { cause: details.cause });
    // Keep name "ArgusError" so isArgusError() recognises it across bundles; `kind` tells them apart.
    this.kind = kind;
    this.role = details.role;
    this.model = details.model;
    this.httpStatus = details.httpStatus;
    this.retryable = details.retryable ?? false;
    this.retryAfterMs = details.retryAfterMs;
    this.attempts = details.attempts ?? 1;
    this.usage = details.usage;
  }
}
