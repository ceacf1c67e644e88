/** Sessions over HTTP, and a Socket.io client that records what it receives. */
import { io as connect, type Socket } from "socket.io-client";
import type { StreamedMessage } from "@/lib/protocol/agent-message";
import type { RunStateWire } from "@/lib/protocol/state-wire";
import { now, remaining, sleep, TERMINAL } from "./settings";
import type { World } from "./world";

export interface Session {
  id: string;
  token: string;
}

interface Received {
  m: StreamedMessage;
  at: number;
}

export class Watch {
  readonly received: Received[] = [];
  readonly states: RunStateWire[] = [];
  private constructor(readonly socket: Socket) {
    socket.on("message", (m: StreamedMessage) => this.received.push({ m, at: now() }));
    socket.on("state", (s: RunStateWire) => this.states.push(s));
  }

  static async open(url: string, s: Session): Promise<Watch> {
    const socket = connect(url, { auth: { sessionId: s.id, token: s.token }, transports: ["websocket"], forceNew: true, reconnection: false });
    const watch = new Watch(socket);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("socket did not connect in 15 s")), 15_000);
      socket.once("connect", () => (clearTimeout(timer), resolve()));
      socket.once("connect_error", (e) => (clearTimeout(timer), reject(e)));
    });
    return watch;
  }

  /** The run's terminal state, or a timeout (bounded by the benchmark's budget). */
  async until(runId: string, timeoutMs: number): Promise<string> {
    const end = Date.now() + Math.min(timeoutMs, Math.max(1000, remaining()));
    for (;;) {
      const hit = this.states.find((s) => s.runId === runId && TERMINAL.includes(s.agentState));
      if (hit) return hit.agentState;
      if (Date.now() > end) return `timeout (last: ${this.states.filter((s) => s.runId === runId).at(-1)?.agentState ?? "none"})`;
      await sleep(20);
    }
  }

  close() {
    this.socket.close();
  }
}

export async function createSession(w: World): Promise<Session> {
  const res = await w.call("POST", "/api/sessions", { body: {} });
  if (res.status !== 201) throw new Error(`create session: ${res.status} ${res.text}`);
  return res.json as Session;
}

export async function upload(w: World, s: Session, png: Buffer, name: string): Promise<string> {
  const form = new FormData();
  form.set("file", new Blob([png as BlobPart]), name);
  const res = await w.call("POST", `/api/sessions/${s.id}/uploads`, { token: s.token, raw: form });
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${res.text}`);
  return (res.json as { id: string }).id;
}

export async function post(w: World, s: Session, content: string, media?: string[]): Promise<string> {
  const res = await w.call("POST", `/api/sessions/${s.id}/messages`, { token: s.token, body: { role: "user", content, ...(media ? { media } : {}) } });
  if (res.status !== 202) throw new Error(`post message: ${res.status} ${res.text}`);
  return (res.json as { runId: string }).runId;
}

export async function remove(w: World, s: Session): Promise<void> {
  const res = await w.call("DELETE", `/api/sessions/${s.id}`, { token: s.token });
  if (res.status !== 204) throw new Error(`delete session: ${res.status} ${res.text}`);
}
