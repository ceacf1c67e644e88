import { randomUUID } from "node:crypto";
import type { KernelWait, WaitWire } from "@/lib/foundation/protocol/waits";

/**
 * One request's wait for a kernel, told to whoever shows it: `began` as the pool reports a wait
 * (again if what it waits for changes), `end` once the kernel is in hand. Nothing is told when
 * the request did not wait (a pooled kernel was ready).
 */
export interface WaitReport {
  began(wait: KernelWait): void;
  end(): void;
}

export function reportWaits(tell: ((wire: WaitWire) => void) | null, now: () => number = Date.now): WaitReport {
  const id = randomUUID();
  let since: number | null = null;
  let last: KernelWait | null = null;
  // One reading of the clock per report: the beginning's own report says 0 however slow the machine.
  const send = (ended: boolean, at: number) => {
    if (!tell || !last || since === null) return;
    try {
      tell({ id, what: last.what, ahead: last.ahead, waitedMs: Math.max(0, Math.round(at - since)), ended });
    } catch {
      // A wait nobody hears is simply not shown; the kernel is what matters.
    }
  };
  return {
    began(wait) {
      const at = now();
      since ??= at;
      last = wait;
      send(false, at);
    },
    end() {
      send(true, now());
      last = null;
    },
  };
}

/** Takes a kernel while the session's chat hears what the request waits for; no session, nobody told. */
export function withWaits<T>(
  tell: ((sessionId: string, wire: WaitWire) => void) | undefined,
  sessionId: string | null,
  take: (began: (wait: KernelWait) => void) => Promise<T>,
): Promise<T> {
  const waits = reportWaits(sessionId !== null && tell ? (wire) => tell(sessionId, wire) : null);
  return take((wait) => waits.began(wait)).finally(() => waits.end());
}
