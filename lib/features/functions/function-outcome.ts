import type { Execution } from "@/lib/foundation/protocol/contexts";

/** The mime type python/argus/function_call.py publishes its outcome under. */
export const RESULT_MIME = "application/vnd.argus.function-result+json";

/**
 * Why one function call failed. Only that call fails; the caller (HTTP route,
 * batch row) shows `message` to the person.
 * - timeout: ran past its time limit and was stopped.
 * - crashed: the kernel died under it (memory limit, os._exit, segfault).
 * - output_too_large: printed more than the output cap.
 * - raised: the function raised an exception (message has the last lines of the traceback).
 * - bad_function: the stored code does not define the named function.
 * - bad_input: the input file could not be given to the function.
 * - cancelled: the caller aborted the call.
 * A return value that is not JSON is NOT an error: it becomes its repr.
 */
export type FunctionErrorKind = "timeout" | "crashed" | "output_too_large" | "raised" | "bad_function" | "bad_input" | "cancelled";

export interface FunctionError {
  kind: FunctionErrorKind;
  message: string;
}

/** What the kernel side reported, before saved images are stored. */
export interface KernelOutcome {
  result: unknown;
  stdout: string;
  /** Seconds the function itself ran (measured in the kernel), or wall time when it never reported. */
  seconds: number;
  error: FunctionError | null;
  /** Images the call wrote at the top of its working directory (names, reported by the kernel). */
  saved: string[];
}

const KERNEL_KINDS = new Set<FunctionErrorKind>(["raised", "bad_function", "output_too_large", "bad_input"]);

/** One item's outcome as a chunk publishes it: the outcome and its place in the chunk. */
export interface ChunkItemOutcome extends KernelOutcome {
  index: number;
}

/**
 * One published outcome (the RESULT_MIME value, parsed or as JSON text); null when it is not
 * one. Pure: the kernel is untrusted, so every field is checked.
 */
export function parseOutcome(raw: unknown, wallSeconds: number): ChunkItemOutcome | null {
  let parsed: { index?: unknown; result?: unknown; stdout?: unknown; seconds?: unknown; saved?: unknown; error?: { kind?: unknown; message?: unknown } | null };
  try {
    parsed = (typeof raw === "string" ? JSON.parse(raw) : raw) as typeof parsed;
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== "object") return null;
  const kind = parsed.error?.kind;
  const error =
    parsed.error && typeof kind === "string"
      ? { kind: KERNEL_KINDS.has(kind as FunctionErrorKind) ? (kind as FunctionErrorKind) : "raised", message: String(parsed.error.message ?? "") }
      : null;
  return {
    index: typeof parsed.index === "number" && Number.isInteger(parsed.index) ? parsed.index : 0,
    result: parsed.result ?? null,
    stdout: typeof parsed.stdout === "string" ? parsed.stdout : "",
    seconds: typeof parsed.seconds === "number" ? parsed.seconds : wallSeconds,
    error,
    saved: Array.isArray(parsed.saved) ? parsed.saved.filter((n): n is string => typeof n === "string") : [],
  };
}

/**
 * Where an outcome that arrives while item `next` of `count` runs puts the chunk. Code running
 * in the kernel can publish outcomes of its own (the function shares the process with
 * argus.function_call), so only the expected index is taken. Anything else is tampering: an
 * index ahead of the running item blames the running item; one already taken means that earlier
 * outcome may have been forged too, so it is blamed and every outcome from it on is dropped.
 */
export function outcomeOrder(next: number, index: number, count: number): { kind: "take" } | { kind: "tampered"; blame: number } {
  if (index === next && next < count) return { kind: "take" };
  return { kind: "tampered", blame: Math.max(0, Math.min(index, next, count - 1)) };
}

/** Characters as Python counts them (a surrogate pair is one): the kernel side counts its caps so. */
export function codePoints(text: string): number {
  return text.length - (text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);
}

/**
 * The caps held again on what arrived: the kernel side checks them, but code running in the
 * kernel can publish an outcome of its own past them. Null when the outcome is within them.
 */
export function overCaps(outcome: { stdout: string; result: unknown }, caps: { maxOutputChars: number; maxResultChars: number }): FunctionError | null {
  if (codePoints(outcome.stdout) > caps.maxOutputChars) return { kind: "output_too_large", message: `The function printed more than ${caps.maxOutputChars} characters.` };
  // JSON.stringify never makes a value longer than Python's json.dumps (which escapes non-ASCII), so a result the kernel let through passes.
  const size = outcome.result === null ? 0 : (JSON.stringify(outcome.result)?.length ?? 0);
  if (size > caps.maxResultChars) return { kind: "output_too_large", message: `The result is ${size} characters as JSON, over the limit of ${caps.maxResultChars}. Return a summary (counts, boxes) instead of whole arrays.` };
  return null;
}

/** How a cell that reported no (further) outcome ended: a timeout, a cancel, a dead kernel. */
export function cellFailure(execution: Execution, wallSeconds: number): KernelOutcome & { error: FunctionError } {
  const stdout = execution.stdout;
  const cellError = execution.error;
  const failed = { result: null, stdout, seconds: wallSeconds, saved: [] as string[] };
  if (cellError?.name === "TimeoutError") return { ...failed, error: { kind: "timeout", message: cellError.value } };
  if (cellError?.name === "Cancelled") return { ...failed, error: { kind: "cancelled", message: cellError.value } };
  if (cellError?.name === "KernelDied") {
    return {
      ...failed,
      error: { kind: "crashed", message: `The function stopped its kernel (it may have used too much memory or exited): ${cellError.value}` },
    };
  }
  return {
    ...failed,
    error: { kind: "crashed", message: cellError ? `${cellError.name}: ${cellError.value}` : "The function ended without reporting a result." },
  };
}

/** A Python string literal for `text` (a JSON string is one). */
export function pyString(text: string): string {
  return JSON.stringify(text);
}

/** Where the server writes a chunk's n-th input before the call (python/argus/function_call.py INPUT_PREFIX). */
export const stagedInputName = (n: number) => `.argus-input-${n}`;

/**
 * The one cell that runs `name` from `code` on each item of a chunk in turn. Each item is
 * [staged input, the name the function sees]; ["", ""] is an item whose file could not be
 * written (it fails as bad_input in its turn, so outcomes stay in order).
 */
export function chunkCell(code: string, name: string, items: ReadonlyArray<readonly [string, string]>, caps: { maxOutputChars: number; maxResultChars: number }): string {
  const int = (n: number) => Math.max(1, Math.floor(n));
  return [
    "from argus.function_call import call_chunk as __argus_call_chunk",
    `__argus_call_chunk(${pyString(code)}, ${pyString(name)}, ${JSON.stringify(items)}, ${int(caps.maxOutputChars)}, ${int(caps.maxResultChars)});`,
  ].join("\n");
}
