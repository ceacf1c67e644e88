import { addFunctionVersion, type FunctionVersionRow } from "@/lib/engines/db/functions";
import type { Db } from "@/lib/engines/db/database";
import { CodeContextSchema } from "@/lib/foundation/protocol/contexts";
import { functionName } from "./function-name";

/**
 * Keeps a coder's result as the next version of its session function (issue
 * #15): called when the coder finishes, whether it came from a new task or an
 * edit_code run. Returns null (and keeps nothing) when the outputs hold no
 * function (the coder failed before writing one).
 */
export async function keepCoderResult(db: Db, r: { sessionId: string; runId: string | null; outputs: unknown; now: string }): Promise<FunctionVersionRow | null> {
  const parsed = CodeContextSchema.safeParse(r.outputs);
  if (!parsed.success || !parsed.data.code.trim()) return null;
  const name = functionName(parsed.data.code, parsed.data.test);
  if (!name) return null;
  return addFunctionVersion(db, {
    sessionId: r.sessionId,
    name,
    code: parsed.data.code,
    test: parsed.data.test,
    runId: r.runId,
    testOutput: parsed.data.testResult,
    success: parsed.data.success,
    now: r.now,
  });
}
