/**
 * The wait the open chat's run is in now, if any (lib/foundation/protocol/waits.ts), for the step that
 * shows it. A small store outside React state, fed by the session's socket (use-session-stream.ts):
 * one page shows one chat, and a wait begins and ends a few times per run at most.
 */
import { WaitWireSchema, type WaitWhat } from "@/lib/foundation/protocol/waits";

export interface ShownWait {
  id: string;
  what: WaitWhat;
  ahead: number | null;
  /** When it began, on this page's clock (the server says how long it had waited, not when). */
  startedAt: number;
}

/** The wait after `wire` arrives at `now`: a beginning (or change) replaces it, its own end clears it. Anything malformed changes nothing. */
export function nextWait(current: ShownWait | null, wire: unknown, now: number): ShownWait | null {
  const parsed = WaitWireSchema.safeParse(wire);
  if (!parsed.success) return current;
  const w = parsed.data;
  if (w.ended) return current?.id === w.id ? null : current;
  const startedAt = current?.id === w.id ? current.startedAt : now - w.waitedMs;
  return { id: w.id, what: w.what, ahead: w.ahead, startedAt };
}

let current: ShownWait | null = null;
const listeners = new Set<() => void>();

function set(next: ShownWait | null): void {
  if (next === current) return;
  current = next;
  for (const fn of listeners) fn();
}

export const sessionWaits = {
  receive(wire: unknown): void {
    set(nextWait(current, wire, Date.now()));
  },
  /** Another chat opened, or the socket reconnected: a wait it missed the end of is not shown for ever. */
  clear(): void {
    set(null);
  },
  current(): ShownWait | null {
    return current;
  },
  subscribe(fn: () => void): () => void {
    listeners.add(fn);
    return () => listeners.delete(fn);
  },
};
