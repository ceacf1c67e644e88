/**
 * What the vision tools' surfaces (the kernel bridge, the HTTP routes, /api/health) need of the
 * neural inference engine (lib/engines/vision/service.ts). Written as a port so these surfaces depend on
 * the engine's contract, not on how it runs its models.
 */
export interface VisionToolInfo {
  name: string;
  signature: string;
  doc: string;
  /** The tool's keyword arguments as JSON Schema. */
  params: unknown;
}

export interface VisionHealth {
  state: string;
  models: { name: string; loaded: boolean; error?: string }[];
  rssBytes: number;
  queue: { running: number; waiting: number; limit: number };
}

export interface VisionTools {
  list(): VisionToolInfo[];
  /** Throws the engine's VisionError (see visionErrorOf) for what it refuses or cannot do. */
  call(name: string, image: Buffer, params: unknown, opts?: { signal?: AbortSignal }): Promise<{ result: unknown; seconds: number }>;
  health(): VisionHealth;
}

export type VisionErrorCode = "unknown_tool" | "bad_params" | "bad_image" | "busy" | "aborted" | "unavailable" | "failed";

export interface VisionErrorShape {
  code: VisionErrorCode;
  message: string;
  field?: string;
  retryAfterSeconds?: number;
}

const CODES = new Set<string>(["unknown_tool", "bad_params", "bad_image", "busy", "aborted", "unavailable", "failed"]);

/**
 * The engine's VisionError, recognised by its shape: route handlers are bundled by Next apart
 * from server.ts, so `instanceof` fails across the two module graphs (as with ArgusError).
 */
export function visionErrorOf(value: unknown): VisionErrorShape | null {
  if (!(value instanceof Error)) return null;
  const { name, code, field, retryAfterSeconds } = value as Error & { code?: unknown; field?: unknown; retryAfterSeconds?: unknown };
  if (name !== "VisionError" || typeof code !== "string" || !CODES.has(code)) return null;
  return {
    code: code as VisionErrorCode,
    message: value.message,
    ...(typeof field === "string" ? { field } : {}),
    ...(typeof retryAfterSeconds === "number" ? { retryAfterSeconds } : {}),
  };
}
