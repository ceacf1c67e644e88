import { execFile } from "node:child_process";
import path from "node:path";
import { io as connect, type Socket } from "socket.io-client";
import { loadScenario, startScriptedModel, type ScriptedModel, type ScriptedModelOptions } from "@/scripted-model/server";
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";
import type { SyncAck } from "@/lib/foundation/protocol/socket";
import type { RunStateWire } from "@/lib/foundation/protocol/state-wire";
import { api, startArgus, type RunningServer } from "./argus-server";
import { tempDir } from "./temp-dir";

export const ROLE_MODELS = {
  ARGUS_MODEL_CONVERSATION: "conversation",
  ARGUS_MODEL_PLANNER: "planner",
  ARGUS_MODEL_CODER: "coder",
  ARGUS_MODEL_VQA: "vqa",
  ARGUS_MODEL_JUDGE: "judge",
};

let coins: Promise<Buffer> | undefined;

/**
 * scikit-image's coins photo as PNG bytes (the acceptance scenario's input), made once per test
 * file. Asynchronous on purpose: a synchronous Python start blocked the event loop for seconds
 * on a busy machine, long enough for the server to close an idle keep-alive socket that fetch
 * then reused for the upload (EPIPE).
 */
export function coinsPng(): Promise<Buffer> {
  coins ??= new Promise((resolve, reject) => {
    execFile(
      "/usr/bin/python3",
      ["-c", "import io, sys; from PIL import Image; from skimage import data; b = io.BytesIO(); Image.fromarray(data.coins()).save(b, 'PNG'); sys.stdout.buffer.write(b.getvalue())"],
      { maxBuffer: 10 * 1024 * 1024, encoding: "buffer" },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}: ${stderr.toString()}`)) : resolve(stdout)),
    );
  });
  return coins;
}

export interface AgentWorld {
  model: ScriptedModel;
  server: RunningServer;
  call: ReturnType<typeof api>;
  close: () => Promise<void>;
}

/** The scripted model (in this process) and a real Argus server pointed at it. */
export async function startAgentWorld(scenarioFile: string, env: Record<string, string> = {}, modelOptions: ScriptedModelOptions = {}): Promise<AgentWorld> {
  const scratch = tempDir("argus-agents-");
  const model = await startScriptedModel(loadScenario(path.resolve(scenarioFile)), modelOptions);
  const server = await startArgus({
    dataDir: scratch.dir,
    env: { ARGUS_JUPYTER: "auto", ARGUS_KERNEL_POOL: "1", OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "scripted", ...ROLE_MODELS, ...env },
  });
  return {
    model,
    server,
    call: api(server.url),
    close: async () => {
      await server.kill();
      await model.close();
      scratch.cleanup();
    },
  };
}

export interface Watch {
  socket: Socket;
  messages: StreamedMessage[];
  states: RunStateWire[];
  /**
   * Resolves when a run reaches one of these agent states: the given run, or
   * else the newest run. Looks at every state received, so a run that ended
   * before the call is still seen.
   */
  until: (states: string[], timeoutMs?: number, runId?: string) => Promise<RunStateWire>;
}

export async function watchSession(url: string, session: { id: string; token: string }): Promise<Watch> {
  const socket = connect(url, { auth: { sessionId: session.id, token: session.token }, transports: ["websocket"], forceNew: true });
  const messages: StreamedMessage[] = [];
  const states: RunStateWire[] = [];
  // States taken from a `sync` answer, not (yet) seen live: their live copy, if it still comes, is not counted twice.
  const synced: string[] = [];
  const stateKey = (s: RunStateWire) => `${s.runId}\u0000${s.agentState}\u0000${s.turn}`;
  // Live messages are kept exactly as they arrive (tests check the socket never doubles one).
  socket.on("message", (m: StreamedMessage) => messages.push(m));
  socket.on("state", (s: RunStateWire) => {
    const copy = synced.indexOf(stateKey(s));
    if (copy >= 0) synced.splice(copy, 1);
    else states.push(s);
  });
  /**
   * What the socket missed, asked for the way a page does (docs/api.md, Reconnecting): on a busy machine
   * a websocket can miss its ping and reconnect, and events emitted in the gap never arrive live.
   * A run that ended in such a gap was never seen to end (the run "reached no end state at all").
   */
  const catchUp = async () => {
    const afterSeq = messages.reduce((max, m) => Math.max(max, m.seq), 0);
    const ack = (await socket.timeout(10_000).emitWithAck("sync", { afterSeq }).catch(() => null)) as SyncAck | null;
    if (!ack?.ok) return false;
    for (const m of ack.messages) {
      if (messages.some((seen) => seen.seq === m.seq)) continue;
      const at = messages.findIndex((seen) => seen.seq > m.seq);
      messages.splice(at < 0 ? messages.length : at, 0, m); // in seq order, as it would have arrived
    }
    const state = ack.state;
    if (state && !states.some((s) => stateKey(s) === stateKey(state))) {
      states.push(state);
      synced.push(stateKey(state));
    }
    return true;
  };
  let connectedOnce = false;
  socket.on("connect", () => {
    if (connectedOnce) void catchUp();
    connectedOnce = true;
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  return {
    socket,
    messages,
    states,
    until: async (wanted, timeoutMs = 90_000, runId) => {
      const end = Date.now() + timeoutMs;
      let nextCatchUp = Date.now() + CATCH_UP_EVERY_MS;
      for (;;) {
        const target = runId ?? lastRunId(messages);
        const hit = states.find((s) => s.runId === target && wanted.includes(s.agentState));
        if (hit) {
          // The end state can arrive live while messages lost in a reconnect gap are still being
          // fetched (the reconnect's catch-up is not awaited): one last sync makes `messages`
          // complete up to the end before a test reads them.
          // A socket the test closed itself (not `active`) is not waited for.
          while (socket.active && !(await catchUp()) && Date.now() < end) await new Promise((r) => setTimeout(r, 200));
          return hit;
        }
        if (Date.now() > end) throw new Error(`run did not reach ${wanted.join("/")}; states: ${states.map((s) => s.agentState).join(",")}`);
        // A dropped link is not always noticed (no reconnect yet): ask now and then, as a page would on focus.
        if (Date.now() >= nextCatchUp && socket.connected) {
          await catchUp();
          nextCatchUp = Date.now() + CATCH_UP_EVERY_MS;
          continue;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

/** How often a waiting `until` asks the server (sync) for what the socket may have missed. */
const CATCH_UP_EVERY_MS = 10_000;

export async function uploadFile(world: AgentWorld, session: { id: string; token: string }, bytes: Uint8Array, name: string) {
  const form = new FormData();
  form.set("file", new Blob([bytes as BlobPart]), name);
  const res = await world.call("POST", `/api/sessions/${session.id}/uploads`, { token: session.token, raw: form });
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${res.text}`);
  return res.json as { id: string; url: string };
}

export const scenarioPath = (name: string) => path.join(import.meta.dirname, "..", "..", "e2e", "scenarios", name);

/** The run of the newest user message seen on the socket. */
function lastRunId(messages: readonly StreamedMessage[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === "user" && messages[i]!.runId) return messages[i]!.runId;
  return null;
}
