import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";

/**
 * Merges newly received messages into the list the page shows, by `seq`:
 * sorted, each seq once. The same message can arrive twice (live, and again in
 * a `sync` reply after a reconnect) and out of order; the page must show each
 * exactly once, in order. Returns the same array when nothing changed, so
 * React can skip a render.
 */
export function mergeMessages(current: readonly StreamedMessage[], incoming: readonly StreamedMessage[]): StreamedMessage[] {
  if (incoming.length === 0) return current as StreamedMessage[];
  const bySeq = new Map<number, StreamedMessage>();
  for (const m of current) bySeq.set(m.seq, m);
  let changed = false;
  for (const m of incoming) {
    if (!bySeq.has(m.seq)) {
      bySeq.set(m.seq, m);
      changed = true;
    }
  }
  if (!changed) return current as StreamedMessage[];
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

/** The seq to ask `sync` for: the highest one held. */
export const lastSeq = (messages: readonly StreamedMessage[]): number => messages.at(-1)?.seq ?? 0;

/**
 * Whether a wire message carries its typed chat item, which the page renders. The server always
 * sends one; a message without (an instance of an older version, mid-upgrade, relaying through
 * Redis) is left out rather than breaking the page, and comes back whole on the next sync.
 */
export function hasChatItem(m: unknown): m is StreamedMessage {
  if (typeof m !== "object" || m === null) return false;
  const { seq, item } = m as { seq?: unknown; item?: unknown };
  return Number.isInteger(seq) && typeof item === "object" && item !== null && typeof (item as { type?: unknown }).type === "string";
}
