/** Whether each client got every message of its session once, in order, and nothing else. */
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";
import type { Session, Watch } from "./sessions";
import { sleep } from "./settings";
import type { World } from "./world";

export interface Delivery {
  transcript: number;
  received: number;
  missing: number;
  duplicates: number;
  outOfOrder: number;
  /** Received messages that are not this session's (wrong run, content or another session's tag). */
  foreign: number;
}

/**
 * Compares what the socket received with the transcript. Waits (bounded) for
 * the tail of the stream, since `finished` may be read before the last message
 * is parsed.
 */
export async function checkDelivery(w: World, s: Session, watch: Watch, runIds: Set<string>, tag: string, allTags: RegExp): Promise<Delivery> {
  const res = await w.call("GET", `/api/sessions/${s.id}`, { token: s.token });
  const transcript = (res.json?.messages ?? []) as StreamedMessage[];
  const end = Date.now() + 3000;
  await watch.refresh();
  while (watch.received.length < transcript.length && Date.now() < end) {
    await sleep(20);
    await watch.refresh();
  }
  const bySeq = new Map(transcript.map((m) => [m.seq, m]));
  const seen = new Map<number, number>();
  let outOfOrder = 0;
  let foreign = 0;
  let last = -1;
  for (const { m } of watch.received) {
    seen.set(m.seq, (seen.get(m.seq) ?? 0) + 1);
    if (m.seq <= last) outOfOrder++;
    last = Math.max(last, m.seq);
    const mine = bySeq.get(m.seq);
    const otherTag = [...m.content.matchAll(allTags)].some((x) => x[0] !== tag);
    if (!mine || mine.content !== m.content || mine.runId !== m.runId || (m.runId !== null && !runIds.has(m.runId)) || otherTag) foreign++;
  }
  return {
    transcript: transcript.length,
    received: watch.received.length,
    missing: transcript.filter((m) => !seen.has(m.seq)).length,
    duplicates: [...seen.values()].reduce((n, c) => n + (c > 1 ? c - 1 : 0), 0),
    outOfOrder,
    foreign,
  };
}

export const addDelivery = (a: Delivery, b: Delivery): Delivery => ({
  transcript: a.transcript + b.transcript,
  received: a.received + b.received,
  missing: a.missing + b.missing,
  duplicates: a.duplicates + b.duplicates,
  outOfOrder: a.outOfOrder + b.outOfOrder,
  foreign: a.foreign + b.foreign,
});

export const NO_DELIVERY: Delivery = { transcript: 0, received: 0, missing: 0, duplicates: 0, outOfOrder: 0, foreign: 0 };

export const deliveryOk = (d: Delivery) => d.missing === 0 && d.duplicates === 0 && d.outOfOrder === 0 && d.foreign === 0 && d.received === d.transcript;

export const latenciesOf = (watch: Watch) => watch.received.map(({ m, at }) => at - Date.parse(m.ts));
