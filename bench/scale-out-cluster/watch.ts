/** A person's page on one address (an instance, or nginx): every message and state as it arrives, with when. */
import { io as connect, type Socket } from "socket.io-client";
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";
import type { SyncAck } from "@/lib/foundation/protocol/socket";
import type { RunStateWire } from "@/lib/foundation/protocol/state-wire";

export interface Arrival {
  seq: number;
  runId: string | null;
  /** When the writing instance stamped the event, just before its database append (ms since the epoch). */
  stampedAt: number;
  /** When this client got it (ms since the epoch, same clock: one machine). */
  at: number;
  /** Fetched after a reconnect, not received live. */
  synced?: boolean;
}

export interface Watcher {
  socket: Socket;
  arrivals: Arrival[];
  states: Array<RunStateWire & { at: number; synced?: boolean }>;
  /** Resolves when `check` holds, re-checked on every message and state; rejects after `ceilingMs` (a broken run, not a timing). */
  until(check: () => boolean, what: string, ceilingMs?: number): Promise<void>;
  close(): void;
}

export async function watch(url: string, session: { id: string; token: string }): Promise<Watcher> {
  const socket = connect(url, { auth: { sessionId: session.id, token: session.token }, transports: ["websocket"], forceNew: true });
  const arrivals: Arrival[] = [];
  const states: Watcher["states"] = [];
  const waiters = new Set<() => void>();
  const poke = () => {
    for (const w of [...waiters]) w();
  };
  socket.on("message", (m: StreamedMessage) => {
    arrivals.push({ seq: m.seq, runId: m.runId, stampedAt: Date.parse(m.ts), at: Date.now() });
    poke();
  });
  socket.on("state", (s: RunStateWire) => {
    states.push({ ...s, at: Date.now() });
    poke();
  });
  // A page that reconnects (its instance was killed; nginx sends it to another) asks for what it
  // missed, as a page does; what comes that way is not a live arrival and is kept out of the latencies.
  let connectedOnce = false;
  socket.on("connect", () => {
    if (connectedOnce) void catchUp();
    connectedOnce = true;
  });
  const catchUp = async () => {
    const afterSeq = arrivals.reduce((max, a) => Math.max(max, a.seq), 0);
    const ack = (await socket.timeout(30_000).emitWithAck("sync", { afterSeq }).catch(() => null)) as SyncAck | null;
    if (!ack?.ok) return;
    for (const m of ack.messages) if (!arrivals.some((a) => a.seq === m.seq)) arrivals.push({ seq: m.seq, runId: m.runId, stampedAt: Date.parse(m.ts), at: Date.now(), synced: true });
    if (ack.state) states.push({ ...ack.state, at: Date.now(), synced: true });
    poke();
  };
  // Connected once the client's own reconnection gets through: nginx sets an instance aside for
  // fail_timeout after a failed connection, so right after a kill it may answer 502 for a while.
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.disconnect();
      reject(new Error(`could not connect to ${url} within 2 minutes`));
    }, 120_000);
    socket.once("connect", () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return {
    socket,
    arrivals,
    states,
    until: (check, what, ceilingMs = 10 * 60_000) =>
      new Promise<void>((resolve, reject) => {
        if (check()) return resolve();
        const timer = setTimeout(() => {
          waiters.delete(test);
          reject(new Error(`never happened: ${what}`));
        }, ceilingMs);
        const test = () => {
          if (!check()) return;
          clearTimeout(timer);
          waiters.delete(test);
          resolve();
        };
        waiters.add(test);
      }),
    close: () => socket.disconnect(),
  };
}

/** The run's end states. */
export const ENDED = ["finished", "error", "stopped", "interrupted"];
