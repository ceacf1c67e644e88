import type { ArgusEvent } from "@/lib/foundation/protocol/events";

/** The code the coder produced last in this session (what edit_code starts from). */
export function lastCode(events: readonly ArgusEvent[]): { code: string; test: string } | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if ("action" in e && e.action === "finish" && e.agent === "coder") {
      const out = e.args.outputs as { code?: unknown; test?: unknown };
      if (typeof out.code === "string") return { code: out.code, test: typeof out.test === "string" ? out.test : "" };
    }
  }
  return null;
}
