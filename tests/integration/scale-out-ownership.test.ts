import { writeFileSync } from "node:fs";
import path from "node:path";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "@/lib/engines/db/database";
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";
import type { RunStateWire } from "@/lib/foundation/protocol/state-wire";
import { scenarioPath, watchSession, type Watch } from "@/tests/helpers/agent-run";
import { api } from "@/tests/helpers/argus-server";
import { haveRedis } from "@/tests/helpers/redis-server";
import { eventually, startScaleOut, transcript, type ScaleOutSession, type ScaleOutWorld } from "@/tests/helpers/scale-out";
import { TEST_DB } from "@/tests/helpers/test-engines";

/**
 * Ownership of a run that holds under pauses and restarts (issue #30), with two real Argus
 * instances on the Postgres of the run's second pass (ARGUS_TEST_DB=postgres) and a Redis of
 * their own. Runs are started through A; clients watch from B. The run's cell waits for a flag
 * file the test puts into the session's workspace, so the test decides when A has something
 * to write. Every wait is for an event or a state, never a clock; each test's budget covers
 * starting and killing real instances on a loaded machine (three starts in the restart test).
 */
let world: ScaleOutWorld;
const sockets: Socket[] = [];

/** A planner cell that waits for the flag, then a question (the run's next step, once the cell is done). */
const WAITING_CELL = {
  name: "a cell that waits for the test's flag",
  turns: [
    { model: "conversation", toolCalls: [{ name: "reply", args: { response: "Looking.", action: "generate_or_edit_vision_code" } }] },
    {
      model: "planner",
      toolCalls: [{ name: "execute_python", args: { thinking: "Wait for the flag.", code: "import os, time\nwhile not os.path.exists('go.flag'):\n    time.sleep(0.05)\nprint('the flag is up')" } }],
    },
    {
      model: "planner",
      expect: { contains: "the flag is up" },
      toolCalls: [{ name: "ask_user", args: { thinking: "Check first.", question: "Shall I go on?", options: ["Yes", "No"] } }],
    },
  ],
};

beforeAll(async () => {
  world = await startScaleOut(scenarioPath("cancel.json"));
}, 240_000);
afterAll(async () => {
  if (process.env.ARGUS_TEST_DUMP) for (const [name, server] of [["a", world?.a], ["b", world?.b]] as const) if (server) writeFileSync(`${process.env.ARGUS_TEST_DUMP}.${name}.log`, server.output());
  for (const socket of sockets) socket.disconnect();
  await world?.close();
});

/** Starts a run whose cell waits for the flag, through `owner` (A unless said), and watches it from B. */
async function startWaitingRun(owner = world.a): Promise<{ session: ScaleOutSession; runId: string; watch: Watch; raiseFlag: () => void }> {
  world.model.load(WAITING_CELL);
  const call = api(owner.url);
  const session = (await call("POST", "/api/sessions")).json as ScaleOutSession;
  const watch = await watchSession(world.b.url, session);
  sockets.push(watch.socket);
  const started = await call("POST", `/api/sessions/${session.id}/messages`, { token: session.token, body: { role: "user", content: "Wait for the flag." } });
  expect(started.status).toBe(202);
  const runId = started.json.runId as string;
  await eventually(() => watch.messages.some((m) => m.runId === runId && m.content.includes("go.flag")), "the waiting cell started");
  return { session, runId, watch, raiseFlag: () => writeFileSync(path.join(world.dataDir, "sessions", session.id, "go.flag"), "go") };
}

/** Whether a write for a run waits on the lease row's lock (the fence check of lib/engines/db/leases.ts). */
async function fencedWriteWaiting(db: Db): Promise<boolean> {
  const row = await db.one<{ n: string | number }>(
    "SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'UPDATE run_leases SET epoch = epoch%'",
  );
  return Number(row?.n ?? 0) > 0;
}

/** The run's states as they arrive live on a socket that never asks `sync`, as a page that is not reloaded. */
async function liveStates(url: string, session: ScaleOutSession): Promise<RunStateWire[]> {
  const socket = connect(url, { auth: { sessionId: session.id, token: session.token }, transports: ["websocket"], forceNew: true });
  sockets.push(socket);
  const states: RunStateWire[] = [];
  socket.on("state", (s: RunStateWire) => states.push(s));
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  return states;
}

describe.skipIf(!haveRedis() || TEST_DB !== "postgres")("ownership of a run across pauses and restarts (Postgres + Redis)", () => {
  it("an owner stalled past its lease (SIGSTOP) writes nothing after the take-over note once it wakes with its cell's result in hand", { timeout: 240_000 }, async () => {
    const { session, runId, watch, raiseFlag } = await startWaitingRun();
    const db = await openDatabase(world.a.database);
    try {
      process.kill(world.a.proc.pid!, "SIGSTOP");
      let unlock!: () => void;
      try {
        expect((await watch.until(["interrupted", "stopped", "error", "finished"], 120_000, runId)).agentState).toBe("interrupted");
        // A's renewal must not tell it the news before it writes (on its own, A usually learns it
        // first, which hides a missing fence): the lease table is held still while A wakes, so
        // only writes that do not ask the lease row go through. The cell finishes meanwhile: its
        // result waits in A's socket for A to wake.
        const held = new Promise<void>((resolve) => (unlock = resolve));
        const locked = new Promise<void>((resolve, reject) => {
          db.transaction(async (tx) => {
            await tx.run("LOCK TABLE run_leases IN SHARE MODE");
            resolve();
            await held;
          }).catch(reject);
        });
        await locked;
        raiseFlag();
      } finally {
        process.kill(world.a.proc.pid!, "SIGCONT");
      }
      // A acts on the cell's result: a fenced write waits for the lease row, an unfenced one lands.
      await eventually(async () => (await fencedWriteWaiting(db)) || (await transcript(world.callB, session)).some((m) => m.runId === runId && m.role === "observation" && m.content.includes("the flag is up")), "A wrote, or tried to");
      unlock();
    } finally {
      await db.close();
    }
    await eventually(() => world.a.output().includes(`lost the lease of session ${session.id}`), "A noticed it lost the run");

    // Whatever A tried has been settled by now: an unfenced write landed before the table was let
    // go, and a fenced one can only be refused (the lease row is gone), as is anything after it.
    const stored = await transcript(world.callB, session);
    const note = stored.findIndex((m) => m.runId === runId && /stopped responding/.test(m.content));
    expect(note).toBeGreaterThan(-1);
    expect(stored.slice(note + 1).filter((m: StreamedMessage) => m.runId === runId)).toEqual([]);
    expect(stored.some((m) => m.role === "observation" && m.content.includes("the flag is up"))).toBe(false);
    // The run's stored state is B's ending, not a "running" A put back.
    expect((await world.callB("GET", `/api/sessions/${session.id}`, { token: session.token })).json.state).toBe("interrupted");
    // A stopped quietly (jupyter-server's own "Uncaught exception" lines under load are not A's).
    expect(world.a.output()).not.toMatch(/UnhandledPromiseRejection|run failed outside its controller/);
  });

  it("a second process under an ARGUS_INSTANCE_ID in use refuses to start, in plain words, and the first one's run goes on", { timeout: 240_000 }, async () => {
    const { session, runId, watch, raiseFlag } = await startWaitingRun();
    const refused = await world.startInstance("a").then(
      () => null,
      (error: unknown) => String(error),
    );
    expect(refused).toMatch(/Another Argus instance is already running with ARGUS_INSTANCE_ID=a\./);
    expect(refused).not.toMatch(/\n\s+at /); // no stack trace
    // A's run was not touched: its cell finishes and the run goes on to its question.
    raiseFlag();
    expect((await watch.until(["awaiting_user_input", "interrupted", "error", "stopped"], 120_000, runId)).agentState).toBe("awaiting_user_input");
    expect(watch.messages.some((m) => m.runId === runId && /interrupted|stopped responding/.test(m.content))).toBe(false);
    expect((await world.callB("POST", `/api/sessions/${session.id}/cancel`, { token: session.token })).status).toBe(202);
    await watch.until(["stopped"], 120_000, runId);
  });

  it("an instance restarted at once under its own id tells the connected clients its cut-off run ended, without a reload", { timeout: 240_000 }, async () => {
    // Instance C keeps a long lease, so only its own restart, never B's sweeper, can end the run.
    const slow = { ARGUS_RUN_LEASE_SECONDS: "60" };
    const c = await world.startInstance("c", slow);
    const { session, runId } = await startWaitingRun(c);
    const states = await liveStates(world.b.url, session);
    await world.crash(c);
    // What `restart: unless-stopped` does: the same instance id again, well within the lease.
    await world.startInstance("c", slow);
    await eventually(() => states.some((s) => s.runId === runId && s.agentState === "interrupted"), "B's client heard the run end");
    const stored = await transcript(world.callB, session);
    expect(stored.filter((m) => m.runId === runId && /Argus server stopped/.test(m.content))).toHaveLength(1);
    expect(stored.some((m) => m.runId === runId && /stopped responding/.test(m.content))).toBe(false);
  });
});
