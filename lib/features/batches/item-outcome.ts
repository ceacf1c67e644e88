import type { ItemOutcome } from "@/lib/engines/db/batches";
import type { FunctionRunResult } from "@/lib/features/functions/run-function";

/** What the function printed is kept on its row only as a head: the full text can be megabytes. */
export const STDOUT_EXCERPT_CHARS = 2000;

/** Endings after which the lane's kernel was replaced: the next chunk is smaller. */
const BAD_ENDINGS = new Set(["timeout", "crashed", "output_too_large", "cancelled"]);

/** Whether a call that ended this way cost its lane a kernel (chunk-size.ts then shrinks the chunk). */
export function endedBadly(out: FunctionRunResult): boolean {
  return !!out.error && BAD_ENDINGS.has(out.error.kind);
}

/** How a function call's result is recorded on its row. */
export function itemOutcome(out: FunctionRunResult): ItemOutcome {
  const status = out.error ? (out.error.kind === "cancelled" ? "cancelled" : "failed") : "done";
  return {
    status,
    result: out.error ? null : out.result,
    stdout: out.stdout ? out.stdout.slice(0, STDOUT_EXCERPT_CHARS) : null,
    seconds: out.seconds,
    error: out.error ? (status === "cancelled" ? "Cancelled while it ran." : out.error.message) : null,
    overlayFileId: out.images[0]?.fileId ?? null,
  };
}
