import type { StreamedMessage } from "./agent-message";
import { agentCard } from "./agent-cards";

/**
 * The number a person reads on a step: each agent's cells counted from 1 within their run, as the
 * chat titles them ("Planner · turn 2", "Coder · test run"). The Result caption, the Media tab's
 * picture names and the Markdown export use these, never the transcript's seq, so a turn has one
 * number everywhere (lib/client/group-messages.ts counts the chat's steps by the same rule).
 */
export function stepNumbers(messages: readonly StreamedMessage[]): Map<number, number> {
  const counts = new Map<string, number>();
  const out = new Map<number, number>();
  for (const m of messages) {
    if (m.item.type !== "cell") continue;
    const key = `${m.item.agent}:${m.runId ?? ""}`;
    const index = (counts.get(key) ?? 0) + 1;
    counts.set(key, index);
    out.set(m.seq, index);
  }
  return out;
}

/** The step's title as the chat shows it: "Planner · turn 2". */
export function stepTitle(agent: string, index: number): string {
  const card = agentCard(agent);
  return card?.stepTitle?.(index) ?? `${card?.label ?? agent} · step ${index}`;
}
