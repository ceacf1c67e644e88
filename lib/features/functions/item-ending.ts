import type { Execution } from "@/lib/foundation/protocol/contexts";
import { cellFailure } from "./function-outcome";
import type { FunctionLimits, FunctionRunResult } from "./function-runner-types";

/**
 * Why the item that was running when the call ended did not report; null when it is not to
 * blame (its predecessor's clock ran out as that one's outcome was on its way: it is run again).
 */
export function itemEnding(
  execution: Execution,
  at: { timedOut: number; next: number; cancelled: boolean; endedByOverflow: boolean; limits: FunctionLimits; wallSeconds: number },
): FunctionRunResult | null {
  const failed = { result: null, stdout: "", images: [], seconds: at.wallSeconds };
  if (at.timedOut === at.next) {
    const seconds = Math.round(at.limits.timeoutMs / 100) / 10;
    return { ...failed, error: { kind: "timeout", message: `The function ran longer than ${seconds} s on this file and was stopped.` } };
  }
  if (at.cancelled) return cancelledWhileRunning(at.wallSeconds);
  if (at.timedOut >= 0) return null;
  if (!execution.error && at.endedByOverflow) return null; // the kernel ended the chunk itself: the rest run again
  const { error, stdout } = cellFailure(execution, at.wallSeconds);
  return { ...failed, stdout, error };
}

/** The item that was running (or waiting for its kernel) when its batch was cancelled. */
export function cancelledWhileRunning(wallSeconds: number): FunctionRunResult {
  return { result: null, stdout: "", images: [], seconds: wallSeconds, error: { kind: "cancelled", message: "Cancelled while it ran." } };
}
