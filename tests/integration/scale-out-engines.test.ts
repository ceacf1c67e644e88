/**
 * Issue #14's acceptance on real engines: two Argus instances ("a" and "b") sharing one
 * ARGUS_DATA_DIR (the documented layout: blobs on a shared volume), ONE Postgres, one Redis
 * and ONE jupyter-server whose root is not Argus's data directory, files moved through the
 * kernel. Runs are started through A; a person's client is connected to B. Every wait is for
 * a state, never a clock.
 */
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";
import { loadScenario, type Scenario } from "@/scripted-model/server";
import { scenarioPath, watchSession, type Watch } from "@/tests/helpers/agent-run";
import { haveRedis } from "@/tests/helpers/redis-server";
import { eventually, shape, startScaleOutOnEngines, storedSeqs, transcript, type ScaleOutOnEngines, type ScaleOutSession } from "@/tests/helpers/scale-out";

let world: ScaleOutOnEngines;
const watches: Watch[] = [];

beforeAll(async () => {
  if (haveRedis()) world = await startScaleOutOnEngines(scenarioPath("ask-mid-run.json"));
}, 240_000);
afterAll(async () => {
  if (process.env.ARGUS_TEST_DUMP) for (const [name, server] of [["a", world?.a], ["b", world?.b]] as const) if (server) writeFileSync(`${process.env.ARGUS_TEST_DUMP}.${name}.log`, server.output());
  for (const w of watches) w.socket.disconnect();
  await world?.close();
});

async function newSession(through: "a" | "b" = "a"): Promise<ScaleOutSession> {
  return (await (through === "a" ? world.callA : world.callB)("POST", "/api/sessions")).json as ScaleOutSession;
}


/** The session's log holds seqs 1..n: nothing skipped, repeated or half-written. */
async function expectGapFreeLog(session: ScaleOutSession): Promise<void> {
  const seqs = await storedSeqs(world.databaseUrl, session.id);
  expect(seqs.length).toBeGreaterThan(0);
  expect(seqs).toEqual(seqs.map((_, i) => i + 1));
}

async function watchOnB(session: ScaleOutSession): Promise<Watch> {
  const watch = await watchSession(world.b.url, session);
  watches.push(watch);
  return watch;
}

async function startOnA(session: ScaleOutSession, content: string): Promise<string> {
  const started = await world.callA("POST", `/api/sessions/${session.id}/messages`, { token: session.token, body: { role: "user", content } });
  expect(started.status).toBe(202);
  return started.json.runId as string;
}

const errorsOf = (messages: readonly StreamedMessage[]) => JSON.stringify(messages.filter((m) => m.role === "error_observation").map((m) => m.content));

/**
 * A's run sets a variable in the planner's notebook and then waits on the model (a reply
 * held for ten minutes), so it is mid-run with an idle kernel; B's run reads the variable.
 */
const killScenario: Scenario = {
  name: "a variable outlives the instance that set it",
  turns: [
    { model: "conversation", toolCalls: [{ name: "reply", args: { response: "On it.", action: "generate_or_edit_vision_code" } }] },
    { model: "planner", toolCalls: [{ name: "execute_python", args: { thinking: "Remember it.", code: "kept = 41\nprint('kept set')" } }] },
    // A dies while this cell runs on the shared Jupyter: B must interrupt it when it takes the run over.
    { model: "planner", toolCalls: [{ name: "execute_python", args: { thinking: "Take long.", code: "import pathlib, time\npathlib.Path('busy.flag').write_text('1')\ntime.sleep(600)" } }] },
    { model: "conversation", expect: { contains: "still there?" }, toolCalls: [{ name: "reply", args: { response: "Let me look.", action: "generate_or_edit_vision_code" } }] },
    { model: "planner", toolCalls: [{ name: "execute_python", args: { thinking: "Read it back.", code: "print('kept', kept + 1)" } }] },
    { model: "planner", expect: { contains: "kept 42" }, toolCalls: [{ name: "finalize_plan", args: { thinking: "Enough." } }] },
    { model: "planner", toolCalls: [{ name: "submit_plan", args: { plan: "p", instructions: ["i"], code: "def f(p):\n    return 1" } }] },
    { model: "coder", toolCalls: [{ name: "write_code", args: { code: "def f(p):\n    return 1" } }] },
    { model: "coder", toolCalls: [{ name: "write_test", args: { test: "print(f('x'))" } }] },
    { model: "conversation", toolCalls: [{ name: "reply", args: { response: "Still here, and so is your variable." } }] },
  ],
};

/** A run whose planner cell waits for `flag` to exist, then a plain reply for the next message. */
function outageScenario(flag: string): Scenario {
  const code = `import os, time\nprint('waiting for the flag', flush=True)\nwhile not os.path.exists(${JSON.stringify(flag)}):\n    time.sleep(0.05)\nprint('flag seen')`;
  return {
    name: "a cell that ends while the database is down",
    turns: [
      { model: "conversation", toolCalls: [{ name: "reply", args: { response: "Waiting.", action: "generate_or_edit_vision_code" } }] },
      { model: "planner", toolCalls: [{ name: "execute_python", args: { thinking: "Wait.", code } }] },
      { model: "planner", toolCalls: [{ name: "finalize_plan", args: { thinking: "Done." } }] },
      { model: "planner", toolCalls: [{ name: "submit_plan", args: { plan: "p", instructions: ["i"], code: "def f(p):\n    return 1" } }] },
      { model: "coder", toolCalls: [{ name: "write_code", args: { code: "def f(p):\n    return 1" } }] },
      { model: "coder", toolCalls: [{ name: "write_test", args: { test: "print(f('x'))" } }] },
      { model: "conversation", toolCalls: [{ name: "reply", args: { response: "Done." } }] },
      { model: "conversation", expect: { contains: "still there?" }, toolCalls: [{ name: "reply", args: { response: "Yes, ready when you are." } }] },
    ],
  };
}

describe.skipIf(!haveRedis())("two instances, one Postgres, one Redis, one shared Jupyter", () => {
  it("a client on B watches A's run to the end, answers its question through B, and A resumes with the kernel intact", { timeout: 300_000 }, async () => {
    world.model.load(loadScenario(scenarioPath("ask-mid-run.json")));
    const session = await newSession();
    const watch = await watchOnB(session);
    const runId = await startOnA(session, "Count the coins, please.");
    await watch.until(["awaiting_user_input"], 120_000, runId);
    const question = watch.messages.find((m) => m.role === "interaction")!;
    expect(question).toBeDefined();

    const answered = await world.callB("POST", `/api/sessions/${session.id}/messages`, {
      token: session.token,
      body: { role: "interaction_response", content: JSON.stringify({ answer: "Watershed" }), answers: question.seq },
    });
    expect(answered.status).toBe(202);
    expect(answered.json).toEqual({ runId, resumed: true });
    const end = await watch.until(["finished", "error", "stopped"], 180_000, runId);
    expect(end.agentState, errorsOf(watch.messages)).toBe("finished");
    // The planner's variable from before the pause was still in the notebook on the shared Jupyter.
    expect(watch.messages.filter((m) => m.role === "observation").map((m) => m.content).join("\n")).toMatch(/still here: 150/);

    // Every message once, in order, equal to the transcript in Postgres (as either instance serves it).
    const stored = await transcript(world.callB, session);
    await eventually(() => watch.messages.length >= stored.length, "B's client received the whole transcript");
    expect(watch.messages.map(shape)).toEqual(stored.map(shape));
    expect(await transcript(world.callA, session)).toEqual(stored);
    await expectGapFreeLog(session);
  });

  it("a cancel sent to B stops the run executing on A", { timeout: 300_000 }, async () => {
    world.model.load(loadScenario(scenarioPath("cancel.json")));
    const session = await newSession();
    const watch = await watchOnB(session);
    const runId = await startOnA(session, "Take your time.");
    await eventually(() => watch.messages.some((m) => m.runId === runId && m.content.includes("time.sleep(120)")), "the long cell started on A");

    const cancelled = await world.callB("POST", `/api/sessions/${session.id}/cancel`, { token: session.token });
    expect(cancelled.status).toBe(202);
    expect(cancelled.json).toEqual({ runId });
    expect((await watch.until(["stopped", "error", "finished", "interrupted"], 120_000, runId)).agentState).toBe("stopped");
    await eventually(async () => (await world.callA("GET", `/api/sessions/${session.id}`, { token: session.token })).json.state === "stopped", "A's view says stopped");
  });

  it("kill -9 of A mid-run: B marks it interrupted, and the next message on B runs in the same notebook kernel", { timeout: 300_000 }, async () => {
    world.model.load(killScenario);
    const session = await newSession();
    const watch = await watchOnB(session);
    const runId = await startOnA(session, "Remember 41.");
    await eventually(() => watch.messages.some((m) => m.runId === runId && m.role === "observation" && m.content.includes("kept set")), "A's planner set the variable");
    // A is now mid-cell: its planner's second cell sleeps in the kernel on the shared Jupyter.
    const busyFlag = path.join(world.jupyterRoot, "argus-workspaces", session.id, "busy.flag");
    await eventually(() => existsSync(busyFlag), "A's long cell is running");

    await world.crashA();
    expect((await watch.until(["interrupted", "stopped", "error", "finished"], 120_000, runId)).agentState).toBe("interrupted");
    expect(watch.messages.some((m) => m.runId === runId && /instance running it stopped responding/.test(m.content))).toBe(true);

    const next = await world.callB("POST", `/api/sessions/${session.id}/messages`, { token: session.token, body: { role: "user", content: "Are you still there?" } });
    expect(next.status).toBe(202);
    const nextRun = next.json.runId as string;
    const end = await watch.until(["finished", "error", "stopped"], 180_000, nextRun);
    expect(end.agentState, errorsOf(watch.messages)).toBe("finished");
    // The variable A's planner set is still there: B reconnected to the same live kernel and
    // interrupted the dead run's sleeping cell instead of queueing behind it.
    expect(watch.messages.some((m) => m.runId === nextRun && m.role === "observation" && /kept 42/.test(m.content))).toBe(true);
    const stored = await transcript(world.callB, session);
    expect(stored.map((m) => m.content).join("\n")).not.toMatch(/notebook was reset/);
    await expectGapFreeLog(session);
    expect(world.b.output()).toMatch(new RegExp(`session ${session.id} reconnected to its running kernel`));
    expect(world.b.output()).toMatch(new RegExp(`interrupting whatever the dead run left running in session ${session.id}`));
    // The session's files live on the kernel host, not in Argus's shared data directory.
    expect(existsSync(path.join(world.jupyterRoot, "argus-workspaces", session.id))).toBe(true);
  });

  it("Postgres unreachable mid-run: B answers 503 in plain words, nothing is half-written, and everything recovers", { timeout: 300_000 }, async () => {
    // The planner's cell waits for a flag file, so the run's next writes come exactly while
    // the database is down.
    const flag = path.join(world.dataDir, `go-${Date.now()}`);
    world.model.load(outageScenario(flag));
    // A was killed above: B serves alone, as after a crash behind a load balancer.
    const session = await newSession("b");
    const watch = await watchOnB(session);
    const runId = await startOnB(session, "Wait for the flag.");
    await eventually(() => watch.messages.some((m) => m.runId === runId && m.content.includes("waiting for the flag")), "the waiting cell started");
    const before = await transcript(world.callB, session);

    await world.postgres.halt();
    try {
      for (const [method, route, body] of [
        ["GET", `/api/sessions/${session.id}`, undefined],
        ["POST", "/api/sessions", undefined],
        ["POST", `/api/sessions/${session.id}/messages`, { role: "user", content: "And another thing" }],
      ] as const) {
        const res = await world.callB(method, route, { token: session.token, ...(body ? { body } : {}) });
        expect(res.status, `${method} ${route}`).toBe(503);
        expect(res.json.error).toMatchObject({ code: "unavailable:db", message: expect.stringMatching(/database cannot be reached/) });
      }
      expect((await world.callB("GET", "/api/health")).json).toMatchObject({ db: "down" });
      // The cell ends now: the run's next append meets the unreachable database.
      writeFileSync(flag, "go");
      await eventually(() => world.b.output().includes(`could not record the end of run ${runId}`), "the run met the outage and settled");
    } finally {
      await world.postgres.start();
    }

    await eventually(async () => (await world.callB("GET", "/api/health")).status === 200, "B's health is back");
    // The run that failed on its writes is ended in the chat once the database is back.
    expect((await watch.until(["interrupted", "stopped", "error", "finished"], 120_000, runId)).agentState).toBe("interrupted");
    expect((await world.callB("GET", `/api/sessions/${session.id}`, { token: session.token })).json.state).toBe("interrupted");
    // Nothing half-written: what was stored before is unchanged, seqs run without a gap or a
    // repeat, and the message refused while the database was down is not there.
    const after = await transcript(world.callB, session);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.slice(before.length).filter((m) => m.runId === runId).map((m) => m.content)).toEqual([expect.stringMatching(/database could not be reached/)]);
    await expectGapFreeLog(session);
    expect(after.some((m) => m.content === "And another thing")).toBe(false);

    // The session takes a new message again, and it runs to the end.
    const next = await world.callB("POST", `/api/sessions/${session.id}/messages`, { token: session.token, body: { role: "user", content: "Are you still there?" } });
    expect(next.status).toBe(202);
    expect((await watch.until(["finished", "error", "stopped"], 180_000, next.json.runId as string)).agentState).toBe("finished");
    expect((await world.callB("POST", "/api/sessions")).status).toBe(201);
  });
});

async function startOnB(session: ScaleOutSession, content: string): Promise<string> {
  const started = await world.callB("POST", `/api/sessions/${session.id}/messages`, { token: session.token, body: { role: "user", content } });
  expect(started.status).toBe(202);
  return started.json.runId as string;
}
