import type { ArgusEvent } from "@/lib/foundation/protocol/events";

import type { PendingInteraction } from "@/lib/foundation/protocol/sessions";


/**
 * The question the person still owes an answer to: the last `interaction`
 * action that no later user message answers (an answer carries the
 * interaction's id as its `cause`). Pure, so the page and the server agree.
 */
export function pendingInteraction(events: readonly ArgusEvent[]): PendingInteraction | null {
  const answered = new Set<number>();
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (!e || !("action" in e)) continue;
    if (e.action === "message" && e.source === "user" && e.cause !== undefined) answered.add(e.cause);
    if (e.action === "interaction" && e.id !== undefined) {
      if (answered.has(e.id)) return null;
      return {
        seq: e.id,
        runId: e.runId ?? null,
        kind: e.args.kind,
        prompt: e.args.prompt,
        options: e.args.options,
        payload: e.args.payload,
      };
    }
  }
  return null;
}
