import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";
import { scenarioPath, watchSession, type Watch } from "@/tests/helpers/agent-run";
import { ANSWER_42_TURNS } from "@/tests/helpers/answer-42";
import type { Scenario } from "@/scripted-model/server";
import { api, type RunningServer } from "@/tests/helpers/argus-server";
import { haveRedis } from "@/tests/helpers/redis-server";
import { eventually, startScaleOut, transcript, type ScaleOutSession, type ScaleOutWorld } from "@/tests/helpers/scale-out";
import { TEST_DB } from "@/tests/helpers/test-engines";

/**
 * Runs that resume on another instance (issue #30): a run whose owner dies (kill -9), stalls past
 * its lease (SIGSTOP) or restarts at once goes on from the log on the instance that takes its
 * lease: its agents rebuilt from the recorded model replies, its notebook rebuilt by running the
 * recorded cells again in a new kernel, the step in flight done once more, and the chat told.
 * Real Argus instances on the Postgres of the suite's second pass and a Redis of their own. The
 * in-flight cell waits for a flag file the test puts into the session's workspace, so the test
 * decides when it can finish; every wait is for an event or a state, never a clock.
 */
let world: ScaleOutWorld;
const watches: Watch[] = [];

/** `base` is set by the first cell and used by the second, which waits for the flag: only a rebuilt notebook has it on the new owner. */
const RESUMABLE_RUN: Scenario = {
  name: "a planner whose second cell waits for the test's flag and uses the first cell's variable",
  turns: [
    { model: "conversation", toolCalls: [{ name: "reply", args: { response: "Let me work it out.", action: "generate_or_edit_vision_code" } }] },
    {
      model: "planner",
      toolCalls: [{ name: "execute_python", args: { thinking: "Set the base and look at a swatch.", code: "import numpy as np\nbase = 41\nview_image(np.full((20, 30, 3), 200, np.uint8))\nprint('base is set')" } }],
    },
    {
      model: "planner",
      expect: { contains: "base is set" },
      toolCalls: [{ name: "execute_python", args: { thinking: "Wait for the flag, then use the base.", code: "import os, time\nwhile not os.path.exists('go.flag'):\n    time.sleep(0.05)\nprint('the answer is', base + 1)" } }],
    },
    // Only a notebook that still had `base` printed this (a NameError otherwise). The agent rebuilt
    // from the log names the first cell's picture as it was named live (a view_image, not a file
    // name): the request is the one the planner would have sent on its first owner.
    { model: "planner", expect: { contains: ["the answer is 42", ': view_image 1"'] }, toolCalls: [{ name: "finalize_plan", args: { thinking: "The answer is 42." } }] },
    ...ANSWER_42_TURNS,
  ],
};

/**
 * The conversation's first reply is answered slowly: its owner is killed after the model took the
 * request (its turn used) and before the answer came back, so the step was never logged and the
 * new owner sends the same request again. As a real model would, the scripted one answers it again.
 */
const LOST_ANSWER_RUN: Scenario = {
  name: "a conversation whose first answer dies with its owner",
  repeatedRequests: "answer_again",
  turns: [
    { model: "conversation", fault: { type: "slow", ms: 10_000 }, toolCalls: [{ name: "reply", args: { response: "Let me work it out.", action: "generate_or_edit_vision_code" } }] },
    { model: "planner", toolCalls: [{ name: "execute_python", args: { thinking: "Add one.", code: "print('the answer is', 41 + 1)" } }] },
    { model: "planner", expect: { contains: "the answer is 42" }, toolCalls: [{ name: "finalize_plan", args: { thinking: "The answer is 42." } }] },
    ...ANSWER_42_TURNS,
  ],
};

beforeAll(async () => {
  world = await startScaleOut(scenarioPath("hello.json"), { ARGUS_RESUME_RUNS: "on" });
}, 240_000);
afterAll(async () => {
  if (process.env.ARGUS_TEST_DUMP) writeFileSync(`${process.env.ARGUS_TEST_DUMP}.b.log`, world?.b.output() ?? "");
  for (const watch of watches) watch.socket.disconnect();
  await world?.close();
});

/** Loads `scenario`, asks "What is 41 plus one?" through `owner` in a new session, and watches it from B. */
async function askThrough(owner: RunningServer, scenario: Scenario): Promise<{ session: ScaleOutSession; runId: string; watch: Watch }> {
  world.model.load(scenario);
  const call = api(owner.url);
  const session = (await call("POST", "/api/sessions")).json as ScaleOutSession;
  const watch = await watchSession(world.b.url, session);
  watches.push(watch);
  const started = await call("POST", `/api/sessions/${session.id}/messages`, { token: session.token, body: { role: "user", content: "What is 41 plus one?" } });
  expect(started.status).toBe(202);
  return { session, runId: started.json.runId as string, watch };
}

/**
 * Starts the run through `owner`, watches it from B, and returns once its second cell waits for the
 * flag. `raiseFlag` is for after the run was picked up elsewhere: it puts the flag into the
 * workspace once the new kernel has taken the workspace over (the notebook-rebuilt mark). While a
 * kernel adopts a workspace its directory is moved, under the workspace's lock, which a file
 * written from outside does not take (on a loaded machine the flag once met the move: ENOENT).
 */
async function startRun(owner: RunningServer): Promise<{ session: ScaleOutSession; runId: string; watch: Watch; raiseFlag: () => Promise<void> }> {
  const { session, runId, watch } = await askThrough(owner, RESUMABLE_RUN);
  await eventually(() => watch.messages.some((m) => m.runId === runId && m.content.includes("go.flag")), "the waiting cell started");
  const raiseFlag = async () => {
    const rebuilt = () => watch.messages.some((m) => m.runId === runId && m.item.type === "redo" && m.item.kind === "notebook_rebuilt");
    // What the run and the instances said, when the mark never comes (once under load: not yet explained).
    await eventually(rebuilt, "the new kernel took the workspace over").catch((error: unknown) => {
      const said = watch.messages.filter((m) => m.runId === runId).slice(-6).map((m) => `${m.seq} ${m.item.type} ${m.role}: ${m.content.slice(0, 200)}`);
      const logs = world.b.output().split("\n").filter((l) => /\[runs\]|\[kernels\]|rror/.test(l)).slice(-20);
      throw new Error(`${String(error)}\nthe run's last messages:\n${said.join("\n")}\nB's log:\n${logs.join("\n")}`);
    });
    writeFileSync(path.join(world.dataDir, "sessions", session.id, "go.flag"), "go");
  };
  return { session, runId, watch, raiseFlag };
}

const MOVED = /moved to another server, continuing/;

/** The run's stored chat, checked for what a resumed run must show: one notice, a rebuilt notebook, no step twice, the answer. */
async function expectResumedOnce(session: ScaleOutSession, runId: string, notice: RegExp): Promise<StreamedMessage[]> {
  const view = (await world.callB("GET", `/api/sessions/${session.id}`, { token: session.token })).json;
  const stored = (view.messages as StreamedMessage[]).filter((m) => m.runId === runId);
  if (process.env.ARGUS_TEST_DUMP) console.log(stored.map((m) => `${m.seq} ${m.item.type} ${m.role}: ${m.content.slice(0, 300)}`).join("\n"));
  expect(view.state).toBe("finished");
  // The notice is a typed chat item (a redo mark of kind "moved"), in plain words.
  expect(stored.filter((m) => m.item.type === "redo" && m.item.kind === "moved" && notice.test(m.content))).toHaveLength(1);
  // The notebook was rebuilt on the new owner by running the recorded cell again (marked in the chat).
  expect(stored.filter((m) => /run again to rebuild its state/.test(m.content))).toHaveLength(1);
  // No step twice: every action and every observation of the run is stored once.
  const steps = stored.filter((m) => m.item.type !== "redo").map((m) => `${m.role}\u0000${m.content}`);
  expect(steps.length).toBeGreaterThan(0);
  expect(new Set(steps).size).toBe(steps.length);
  expect(stored.filter((m) => m.content.includes("the answer is 42"))).toHaveLength(1);
  expect(stored.some((m) => m.content.includes("The answer is **42**."))).toBe(true);
  return stored;
}

describe.skipIf(!haveRedis() || TEST_DB !== "postgres")("runs that resume on another instance (Postgres + Redis)", () => {
  // First, while A and B are the only other instances: the test pauses both.
  it("an instance whose Jupyter did not start leaves a dead owner's run to one that can, and starts its Jupyter once it can", { timeout: 300_000 }, async () => {
    // Its jupyter-server cannot start: where it keeps its launch files is a file, not a directory.
    const launchDir = path.join(world.dataDir, "jupyter", "instances", "nojupyter");
    mkdirSync(path.dirname(launchDir), { recursive: true });
    writeFileSync(launchDir, "in the way");
    const broken = await world.startInstance("nojupyter");
    try {
      expect((await api(broken.url)("GET", "/api/health")).json).toMatchObject({ jupyter: "down" });
      const owner = await world.startInstance("owner");
      const { session, runId, watch, raiseFlag } = await startRun(owner);
      // Only the instance without Jupyter sweeps while A and B are paused.
      const paused = [world.a, world.b];
      for (const server of paused) process.kill(server.proc.pid!, "SIGSTOP");
      try {
        await world.crash(owner);
        await eventually(() => broken.output().includes(`left run ${runId} of instance owner to instances that can run notebook cells`), "the instance without Jupyter left the run to others");
        // A person writing in the chat through it meanwhile is told to send again: it does not take the run for that either.
        const written = await api(broken.url)("POST", `/api/sessions/${session.id}/messages`, { token: session.token, body: { role: "user", content: "Still there?" } });
        expect(written.status).toBe(503);
        expect(written.json.error.message).toMatch(/Another server is taking the chat over; send your message again in a few seconds/);
      } finally {
        for (const server of paused) process.kill(server.proc.pid!, "SIGCONT");
      }
      await eventually(() => watch.messages.some((m) => m.runId === runId && MOVED.test(m.content)), "the run moved to an instance with kernels");
      // What kept its Jupyter from starting is gone (once the run has moved, so it cannot take it): its next try starts it.
      rmSync(launchDir);
      await raiseFlag();
      await watch.until(["finished", "error", "stopped", "interrupted"], 180_000, runId);
      await expectResumedOnce(session, runId, MOVED);
      expect(broken.output()).not.toContain(`run ${runId} (session ${session.id}) of instance owner goes on here`);
      await eventually(() => broken.output().includes("jupyter-server started on retry"), "the instance's Jupyter started on a later try");
      expect((await api(broken.url)("GET", "/api/health")).json).toMatchObject({ jupyter: "up" });
    } finally {
      await world.crash(broken); // out of the later tests' way
    }
  });

  it("an instance restarted under its own id while its Jupyter cannot start hands its run on, and another instance finishes it", { timeout: 300_000 }, async () => {
    // A long lease, so only the restart, never A's or B's sweeper, can pick the run up first.
    const slow = { ARGUS_RUN_LEASE_SECONDS: "60" };
    const first = await world.startInstance("handing", slow);
    const { session, runId, watch, raiseFlag } = await startRun(first);
    await world.crash(first);
    const launchDir = path.join(world.dataDir, "jupyter", "instances", "handing");
    rmSync(launchDir, { recursive: true, force: true });
    writeFileSync(launchDir, "in the way");
    const restarted = await world.startInstance("handing", slow);
    try {
      await eventually(() => restarted.output().includes(`handed run ${runId} (session ${session.id}) on to instances that can run notebook cells`), "the restarted instance handed its run on");
      await eventually(() => watch.messages.some((m) => m.runId === runId && MOVED.test(m.content)), "the run moved to an instance with kernels");
      await raiseFlag();
      await watch.until(["finished", "error", "stopped", "interrupted"], 180_000, runId);
      await expectResumedOnce(session, runId, MOVED);
      expect(watch.messages.some((m) => m.runId === runId && /Argus restarted; continuing this run/.test(m.content))).toBe(false);
    } finally {
      rmSync(launchDir, { force: true });
      await world.crash(restarted);
    }
  });

  it("kill -9 of the owner mid-cell: B rebuilds the agents and the notebook, says so, redoes the cell once, and the run finishes", { timeout: 300_000 }, async () => {
    const { session, runId, watch, raiseFlag } = await startRun(world.a);
    await world.crashA();
    // A person watching through B is told, in plain words, before the run goes on.
    await eventually(() => watch.messages.some((m) => m.runId === runId && MOVED.test(m.content)), "the client on B saw the run move");
    await raiseFlag();
    await watch.until(["finished", "error", "stopped", "interrupted"], 180_000, runId);
    await expectResumedOnce(session, runId, MOVED);
    // Nothing was marked interrupted: the run went on.
    expect(watch.messages.some((m) => m.runId === runId && /stopped responding/.test(m.content))).toBe(false);
    expect(world.b.output()).not.toMatch(/UnhandledPromiseRejection|run failed outside its controller/);
  });

  it("an owner stalled past its lease (SIGSTOP): B goes on with the run, and the owner, woken with its cell's result in hand, writes nothing", { timeout: 300_000 }, async () => {
    const stalled = await world.startInstance("stalled");
    const { session, runId, watch, raiseFlag } = await startRun(stalled);
    process.kill(stalled.proc.pid!, "SIGSTOP");
    try {
      await eventually(() => watch.messages.some((m) => m.runId === runId && MOVED.test(m.content)), "the client on B saw the run move");
      // Both kernels finish the cell: the stalled owner's result waits in its socket for it to wake.
      await raiseFlag();
      await eventually(() => watch.messages.some((m) => m.runId === runId && m.content.includes("the answer is 42")), "B's cell finished");
    } finally {
      process.kill(stalled.proc.pid!, "SIGCONT");
    }
    await eventually(() => stalled.output().includes(`lost the lease of session ${session.id}`), "the woken owner noticed it lost the run");
    expect((await watch.until(["finished", "error", "stopped", "interrupted"], 180_000, runId)).agentState).toBe("finished");
    // The woken owner's observation of the same cell was refused: the step is stored once (checked here).
    await expectResumedOnce(session, runId, MOVED);
    expect(stalled.output()).not.toMatch(/UnhandledPromiseRejection|run failed outside its controller/);
  });

  it("a Continue sent to another instance than the one that ran the stopped run goes on from the cell it stopped in, not from the start", { timeout: 300_000 }, async () => {
    const d = await world.startInstance("d");
    const { session, runId, watch, raiseFlag } = await startRun(d);
    expect((await api(d.url)("POST", `/api/sessions/${session.id}/cancel`, { token: session.token })).status).toBe(202);
    expect((await watch.until(["stopped", "error", "finished", "interrupted"], 180_000, runId)).agentState).toBe("stopped");
    // B never held this run's agents: it rebuilds them from the log.
    const resumed = await world.callB("POST", `/api/sessions/${session.id}/messages`, { token: session.token, body: { role: "user", content: "", redo: { kind: "continue", runId } } });
    expect(resumed.status).toBe(202);
    expect(resumed.json.runId).toBe(runId);
    await eventually(() => watch.messages.some((m) => m.runId === runId && m.item.type === "redo" && m.item.kind === "continue"), "the run was continued");
    const markSeq = watch.messages.find((m) => m.runId === runId && m.item.type === "redo" && m.item.kind === "continue")!.seq;
    await raiseFlag();
    // The run's id is the same as before the stop: it has ended again once it is finished, or once an ending is stored after the mark.
    const view = async () => (await world.callB("GET", `/api/sessions/${session.id}`, { token: session.token })).json as { state: string; messages: StreamedMessage[] };
    await eventually(async () => {
      const now = await view();
      return now.state === "finished" || now.messages.some((m) => m.seq > markSeq && m.role === "final_observation");
    }, "the continued run ended");
    const { state, messages: stored } = await view();
    if (process.env.ARGUS_TEST_DUMP) console.log(stored.map((m) => `${m.seq} ${m.item.type} ${m.role}: ${m.content.slice(0, 300)}`).join("\n"));
    expect(state).toBe("finished");
    // Not answered again from the start: the conversation's first words and the first cell stand once.
    expect(stored.some((m) => /could not be picked up where they stopped/.test(m.content))).toBe(false);
    expect(stored.filter((m) => m.runId === runId && m.content === "Let me work it out.")).toHaveLength(1);
    expect(stored.filter((m) => m.runId === runId && m.item.type === "redo" && m.item.kind === "notebook_rebuilt")).toHaveLength(1);
    expect(stored.filter((m) => m.content.includes("the answer is 42"))).toHaveLength(1);
    expect(stored.some((m) => m.runId === runId && m.content.includes("The answer is **42**."))).toBe(true);
  });

  it("kill -9 of the owner while the conversation's first model call is answered: the new owner asks again, once, and the run finishes", { timeout: 300_000 }, async () => {
    const e = await world.startInstance("e");
    const { session, runId, watch } = await askThrough(e, LOST_ANSWER_RUN);
    // The model took the request (its turn is used) and holds the answer: the owner dies before it logs the step.
    await eventually(() => world.model.requests.some((r) => r.model === "conversation" && r.matchedTurn === 1), "the conversation's first request was taken");
    await world.crash(e);
    await watch.until(["finished", "error", "stopped", "interrupted"], 180_000, runId);
    const view = (await world.callB("GET", `/api/sessions/${session.id}`, { token: session.token })).json;
    const stored = (view.messages as StreamedMessage[]).filter((m) => m.runId === runId);
    if (process.env.ARGUS_TEST_DUMP) console.log(stored.map((m) => `${m.seq} ${m.item.type} ${m.role}: ${m.content.slice(0, 300)}`).join("\n"));
    // Finished, with no error on the way (a failing run says why here).
    expect({ state: view.state, errors: stored.filter((m) => m.role === "error_observation").map((m) => m.content) }).toEqual({ state: "finished", errors: [] });
    expect(stored.filter((m) => m.item.type === "redo" && m.item.kind === "moved" && MOVED.test(m.content))).toHaveLength(1);
    // The first request was sent twice (the owner's answer was lost), its reply is shown once, and the run got the right answer.
    const firstAsked = world.model.requests.filter((r) => r.model === "conversation" && r.matchedTurn === 1);
    expect(firstAsked).toHaveLength(2);
    expect(firstAsked[1]!.messages).toEqual(firstAsked[0]!.messages);
    expect(stored.filter((m) => m.content === "Let me work it out.")).toHaveLength(1);
    expect(stored.filter((m) => m.content.includes("the answer is 42") && m.item.type !== "redo")).toHaveLength(1);
    expect(stored.some((m) => m.content.includes("The answer is **42**."))).toBe(true);
  });

  it("an instance restarted at once under its own id takes its run back and finishes it, and the clients are told", { timeout: 300_000 }, async () => {
    // A long lease, so only the restart, never B's sweeper, can pick the run up.
    const slow = { ARGUS_RUN_LEASE_SECONDS: "60" };
    const c = await world.startInstance("c", slow);
    const { session, runId, watch, raiseFlag } = await startRun(c);
    await world.crash(c);
    await world.startInstance("c", slow);
    const restarted = /Argus restarted; continuing this run/;
    await eventually(() => watch.messages.some((m) => m.runId === runId && restarted.test(m.content)), "the client on B heard the run go on");
    await raiseFlag();
    await watch.until(["finished", "error", "stopped", "interrupted"], 180_000, runId);
    await expectResumedOnce(session, runId, restarted);
    expect(watch.messages.some((m) => m.runId === runId && /Argus server stopped/.test(m.content))).toBe(false);
  });
});
