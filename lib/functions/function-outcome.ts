import type { Execution } from "@/lib/protocol/contexts";

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

const KERNEL_KINDS = new Set<FunctionErrorKind>(["raised", "bad_function", "output_too_large"]);

/** The caps of one call, as the kernel side was told them (callCell). */
export interface OutcomeCaps {
  maxOutputChars: number;
  maxResultChars: number;
}

/** Room for the outcome's own fields around its result and output. */
const OUTCOME_ENVELOPE_CHARS = 64 * 1024;

/**
 * Reads one call's outcome from the cell's Execution: the published result
 * when there is one, else the cell's own error mapped to a kind (a timeout,
 * a dead kernel). Pure, so every way a call can end is unit-tested.
 *
 * The function runs in the same Python process as argus.function_call, so it
 * can publish a display of RESULT_MIME itself, or replace `_publish` and send
 * only its own. So nothing in the published outcome is trusted over what the
 * server saw or can check here: a cell that ended in an error (a timeout, a
 * death, a cancel) failed whatever was published before; more than one
 * outcome is a forgery; and the caps the kernel side enforces are enforced
 * again on what arrived.
 */
export function readOutcome(execution: Execution, wallSeconds: number, caps: OutcomeCaps): KernelOutcome {
  const failed = { result: null, stdout: execution.stdout.slice(0, caps.maxOutputChars), seconds: wallSeconds, saved: [] as string[] };
  const cellError = execution.error;
  if (cellError) return { ...failed, error: cellFailure(cellError) };
  const published = execution.results.map((r) => r.data[RESULT_MIME]).filter((raw): raw is string => raw !== undefined);
  if (published.length === 0) return { ...failed, error: { kind: "crashed", message: "The function ended without reporting a result." } };
  if (published.length > 1) {
    return { ...failed, error: { kind: "raised", message: "The function published an outcome of its own beside Argus's; the call is refused." } };
  }
  const raw = published[0]!;
  // Twice the caps: the kernel counts characters, JavaScript UTF-16 units.
  if (raw.length > 2 * (caps.maxOutputChars + caps.maxResultChars) + OUTCOME_ENVELOPE_CHARS) {
    return { ...failed, error: tooLarge(`The function's outcome is ${raw.length} characters, over the limits of this call.`) };
  }
  let parsed: { result?: unknown; stdout?: unknown; seconds?: unknown; saved?: unknown; error?: { kind?: unknown; message?: unknown } | null };
  try {
    parsed = JSON.parse(raw) as typeof parsed;
  } catch {
    return { ...failed, error: { kind: "crashed", message: "The function ended without reporting a result." } };
  }
  const kind = parsed.error?.kind;
  let error: FunctionError | null =
    parsed.error && typeof kind === "string"
      ? { kind: KERNEL_KINDS.has(kind as FunctionErrorKind) ? (kind as FunctionErrorKind) : "raised", message: String(parsed.error.message ?? "") }
      : null;
  let stdout = typeof parsed.stdout === "string" ? parsed.stdout : "";
  let result = error ? null : (parsed.result ?? null);
  if (codePoints(stdout) > caps.maxOutputChars) {
    stdout = stdout.slice(0, caps.maxOutputChars);
    error = tooLarge(`The function was stopped: it printed more than ${caps.maxOutputChars} characters.`);
    result = null;
  }
  // JSON.stringify never makes a value longer than Python's json.dumps (which escapes non-ASCII), so a result the kernel let through passes.
  const resultChars = result === null ? 0 : JSON.stringify(result).length;
  if (resultChars > caps.maxResultChars) {
    error = tooLarge(`The result is ${resultChars} characters as JSON, over the limit of ${caps.maxResultChars}. Return a summary (counts, boxes) instead of whole arrays.`);
    result = null;
  }
  return {
    result,
    stdout,
    seconds: typeof parsed.seconds === "number" ? parsed.seconds : wallSeconds,
    error,
    saved: Array.isArray(parsed.saved) ? parsed.saved.filter((n): n is string => typeof n === "string") : [],
  };
}

function tooLarge(message: string): FunctionError {
  return { kind: "output_too_large", message };
}

/** Characters as Python counts them (a surrogate pair is one). */
function codePoints(text: string): number {
  return text.length - (text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);
}

/** What the server saw end the cell: its own timeout, a cancel, a dead kernel, or an error the cell raised. */
function cellFailure(cellError: NonNullable<Execution["error"]>): FunctionError {
  if (cellError.name === "TimeoutError") return { kind: "timeout", message: cellError.value };
  if (cellError.name === "Cancelled") return { kind: "cancelled", message: cellError.value };
  if (cellError.name === "KernelDied") {
    return { kind: "crashed", message: `The function stopped its kernel (it may have used too much memory or exited): ${cellError.value}` };
  }
  return { kind: "crashed", message: `${cellError.name}: ${cellError.value}` };
}

/** A Python string literal for `text` (a JSON string is one). */
export function pyString(text: string): string {
  return JSON.stringify(text);
}

/** The one cell that runs `name` from `code` on `path` in the kernel. */
export function callCell(code: string, name: string, path: string, caps: { maxOutputChars: number; maxResultChars: number }): string {
  const int = (n: number) => Math.max(1, Math.floor(n));
  return [
    "from argus.function_call import call_function as __argus_call_function",
    `__argus_call_function(${pyString(code)}, ${pyString(name)}, ${pyString(path)}, ${int(caps.maxOutputChars)}, ${int(caps.maxResultChars)});`,
  ].join("\n");
}
