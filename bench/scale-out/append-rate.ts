/**
 * Events/s through Argus's own append path (`core.events.append`: the seq bump and the insert
 * in one transaction, then the emit) on one database engine. Three shapes, each a fixed number
 * of events, all appenders started together:
 *   - one session, one appender (a run writing its events one after another);
 *   - one session, ten appenders at once (contention on one session's seq);
 *   - ten sessions, one appender each at once (ten runs on one database).
 */
import type { ArgusCore } from "@/lib/server/argus-core";
import { createSession } from "@/lib/features/sessions/service";

export interface AppendRate {
  shape: string;
  events: number;
  perSecond: number;
}

const now = () => performance.now();

async function appendMany(core: ArgusCore, sessionId: string, count: number, tag: string): Promise<void> {
  for (let i = 0; i < count; i++) {
    await core.events.append(sessionId, { source: "user", agent: "user", action: "message", args: { content: `${tag} ${i} ${"x".repeat(200)}` } });
  }
}

async function timed(shape: string, events: number, work: () => Promise<unknown>): Promise<AppendRate> {
  const t0 = now();
  await work();
  return { shape, events, perSecond: events / ((now() - t0) / 1000) };
}

/** `total` events per shape. */
export async function appendRates(core: ArgusCore, total: number): Promise<AppendRate[]> {
  const one = await createSession(core, null);
  const shared = await createSession(core, null);
  const ten = await Promise.all(Array.from({ length: 10 }, () => createSession(core, null)));
  const per = Math.floor(total / 10);
  return [
    await timed("one session, one appender", total, () => appendMany(core, one.id, total, "solo")),
    await timed("one session, ten appenders at once", per * 10, () => Promise.all(Array.from({ length: 10 }, (_, k) => appendMany(core, shared.id, per, `w${k}`)))),
    await timed("ten sessions, one appender each at once", per * 10, () => Promise.all(ten.map((s, k) => appendMany(core, s.id, per, `s${k}`)))),
  ];
}

