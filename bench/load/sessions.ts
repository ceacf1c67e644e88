/** Sessions over HTTP, and Socket.io clients (in their own process, client-process.ts) that record what they receive. */
import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import type { RunStateWire } from "@/lib/foundation/protocol/state-wire";
import type { ClientRequest, Received } from "./client-process";
import { remaining, sleep, TERMINAL } from "./settings";
import type { World } from "./world";

export interface Session {
  id: string;
  token: string;
}

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };
let child: ChildProcess | null = null;
const pending = new Map<number, Pending>();
let nextId = 1;

/** The clients' process, started on first use and stopped by `stopClients`. */
function clientProcess(): ChildProcess {
  if (child) return child;
  child = fork(path.join(import.meta.dirname, "client-process.ts"), [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  child.on("message", (msg: { id: number; result?: unknown; error?: string }) => {
    const p = pending.get(msg.id);
    pending.delete(msg.id);
    if (msg.error !== undefined) p?.reject(new Error(msg.error));
    else p?.resolve(msg.result);
  });
  child.on("exit", () => {
    for (const p of pending.values()) p.reject(new Error("the clients' process exited"));
    pending.clear();
    child = null;
  });
  return child;
}

type Op<R> = R extends unknown ? Omit<R, "id"> : never;
function ask<T>(req: Op<ClientRequest>): Promise<T> {
  const id = nextId++;
  return new Promise<T>((resolve, reject) => {
    pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
    clientProcess().send({ ...req, id });
  });
}

export function stopClients(): void {
  child?.disconnect();
}

/** The clients' process's own event-loop delay p99 (ms) since the last reset. */
export const clientLoopP99 = (reset: boolean) => ask<{ p99: number }>({ op: "loop", reset }).then((r) => r.p99);

let nextKey = 0;

export class Watch {
  readonly received: Received[] = [];
  states: RunStateWire[] = [];
  private constructor(private readonly key: string) {}

  static async open(url: string, s: Session): Promise<Watch> {
    const key = `w${nextKey++}`;
    await ask({ op: "open", key, url, sessionId: s.id, token: s.token });
    return new Watch(key);
  }

  /** Copies in what the client received since the last call. */
  async refresh(): Promise<void> {
    const r = await ask<{ received: Received[]; states: RunStateWire[] }>({ op: "read", key: this.key, from: this.received.length });
    this.received.push(...r.received);
    this.states = r.states;
  }

  /** The run's terminal state, or a timeout (bounded by the benchmark's budget). */
  async until(runId: string, timeoutMs: number): Promise<string> {
    const end = Date.now() + Math.min(timeoutMs, Math.max(1000, remaining()));
    for (;;) {
      await this.refresh();
      const hit = this.states.find((s) => s.runId === runId && TERMINAL.includes(s.agentState));
      if (hit) return hit.agentState;
      if (Date.now() > end) return `timeout (last: ${this.states.filter((s) => s.runId === runId).at(-1)?.agentState ?? "none"})`;
      await sleep(50);
    }
  }

  close() {
    void ask({ op: "close", key: this.key }).catch(() => undefined);
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
