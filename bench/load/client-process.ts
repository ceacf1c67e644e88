/**
 * The benchmark's Socket.io clients, in a process of their own: parsing every session's frames
 * on the benchmark's event loop would otherwise share two cores with the server and the clients'
 * own delay would count as Argus's. The parent (sessions.ts `Watch`) talks to it over IPC.
 * Each message is stamped with the epoch time (performance.timeOrigin + now) it was parsed, the
 * clock the server's `ts` uses too.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { io as connect, type Socket } from "socket.io-client";
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";
import type { RunStateWire } from "@/lib/foundation/protocol/state-wire";

export type ClientRequest =
  | { id: number; op: "open"; key: string; url: string; sessionId: string; token: string }
  | { id: number; op: "read"; key: string; from: number }
  | { id: number; op: "close"; key: string }
  | { id: number; op: "loop"; reset: boolean };

export interface Received {
  m: StreamedMessage;
  at: number;
}

interface Client {
  socket: Socket;
  received: Received[];
  states: RunStateWire[];
}

const now = () => performance.timeOrigin + performance.now();
const clients = new Map<string, Client>();
const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();

function open(url: string, sessionId: string, token: string): Promise<Client> {
  const socket = connect(url, { auth: { sessionId, token }, transports: ["websocket"], forceNew: true, reconnection: false });
  const client: Client = { socket, received: [], states: [] };
  socket.on("message", (m: StreamedMessage) => client.received.push({ m, at: now() }));
  socket.on("state", (s: RunStateWire) => client.states.push(s));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("socket did not connect in 15 s")), 15_000);
    socket.once("connect", () => (clearTimeout(timer), resolve(client)));
    socket.once("connect_error", (e) => (clearTimeout(timer), reject(e)));
  });
}

async function handle(req: ClientRequest): Promise<unknown> {
  switch (req.op) {
    case "open":
      clients.set(req.key, await open(req.url, req.sessionId, req.token));
      return null;
    case "read": {
      const c = clients.get(req.key);
      if (!c) throw new Error(`no client ${req.key}`);
      // Only what the parent has not seen yet, so polling stays cheap.
      return { received: c.received.slice(req.from), states: c.states };
    }
    case "close":
      clients.get(req.key)?.socket.close();
      clients.delete(req.key);
      return null;
    case "loop": {
      const p99 = loop.percentile(99) / 1e6;
      if (req.reset) loop.reset();
      return { p99 };
    }
  }
}

process.on("message", (req: ClientRequest) => {
  handle(req).then(
    (result) => process.send!({ id: req.id, result }),
    (error: unknown) => process.send!({ id: req.id, error: String(error) }),
  );
});
process.on("disconnect", () => process.exit(0));
