/**
 * Typed errors shared by every boundary. A code is "<type>:<surface>"; the type
 * decides the HTTP status, the surface says where it happened. Route handlers,
 * socket acknowledgements and the chat all show `message`, which is written for
 * the person, never a stack trace.
 */
export type ErrorType =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "payload_too_large"
  | "unsupported_media"
  | "unprocessable"
  | "rate_limited"
  | "unavailable"
  | "insufficient_storage"
  | "internal";

export type ErrorSurface =
  | "api"
  | "session"
  | "upload"
  | "file"
  | "socket"
  | "message"
  | "db"
  | "jupyter"
  | "event"
  | "model"
  | "browser"
  | "function"
  | "tool";

export type ErrorCode = `${ErrorType}:${ErrorSurface}`;

const STATUS: Record<ErrorType, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media: 415,
  unprocessable: 422,
  rate_limited: 429,
  unavailable: 503,
  insufficient_storage: 507,
  internal: 500,
};

export interface ErrorBody {
  error: { code: ErrorCode; message: string; field?: string };
}

export class ArgusError extends Error {
  readonly code: ErrorCode;
  readonly type: ErrorType;
  readonly surface: ErrorSurface;
  /** The request field that failed validation, when there is one. */
  readonly field?: string;
  /** When trying again makes sense (sent as `Retry-After`), for rate limits and busy answers. */
  readonly retryAfterSeconds?: number;

  constructor(
    code: ErrorCode,
    message: string,
    options?: { field?: string; cause?: unknown; retryAfterSeconds?: number },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ArgusError";
    this.code = code;
    const [type, surface] = code.split(":") as [ErrorType, ErrorSurface];
    this.type = type;
    this.surface = surface;
    this.field = options?.field;
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }

  get status(): number {
    return STATUS[this.type];
  }
}

/**
 * Route handlers are bundled by Next separately from server.ts, so `instanceof`
 * fails across the two module graphs; recognise the error by its shape instead.
 */
export function isArgusError(value: unknown): value is ArgusError {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { name?: unknown }).name === "ArgusError" &&
    typeof (value as { code?: unknown }).code === "string"
  );
}

export function statusOf(error: ArgusError): number {
  return STATUS[error.type] ?? 500;
}

export function toErrorBody(error: ArgusError): ErrorBody {
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.field === undefined ? {} : { field: error.field }),
    },
  };
}
