import { existsSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";
import { scenarioPath, watchSession, type Watch } from "@/tests/helpers/agent-run";
import { api } from "@/tests/helpers/argus-server";
import { haveRedis } from "@/tests/helpers/redis-server";
import { eventually, startScaleOut, type ScaleOutSession, type ScaleOutWorld } from "@/tests/helpers/scale-out";
import { TEST_DB } from "@/tests/helpers/test-engines";

/**
 * Attacks on runs that resume on another instance (issue #30), with real Argus instances on the
 * Postgres of the suite's second pass and a Redis of their own. The first cell waits for a flag
 * file in the session's workspace, so the test decides how long the notebook's rebuild (which
 * runs that cell again on the new owner) takes; every wait is for an event, a state or a file.
 */
let world: ScaleOutWorld;
const watches: Watch[] = [];

const QUESTION_RUN = {
  name: "a planner whose first cell waits for the test's flag, then asks the person a question",
  turns: [
    { model: "conversation", toolCalls: [{ name: "reply", args: { response: "Let me work it out.", action: "generate_or_edit_vision_code" } }] },
    { model: "planner", toolCalls: [{ name: "execute_python", args: { thinking: "Say it started, wait for the flag, then set the base.", code: "import os, time\nopen('started.mark', 'w').close()\nwhile not os.path.exists('go.flag'):\n    time.sleep(0.05)\nbase = 41\nprint('base is set')" } }] },
    { model: "planner", expect: { contains: "base is set" }, toolCalls: [{ name: "ask_user", args: { thinking: "Ask first.", question: "Add one to the base?", options: ["yes", "no"] } }] },
    { model: "planner", expect: { contains: "yes" }, toolCalls: [{ name: "execute_python", args: { thinking: "Use the base.", code: "print('the answer is', base + 1)" } }] },
    { model: "planner", expect: { contains: "the answer is 42" }, toolCalls: [{ name: "finalize_plan", args: { thinking: "The answer is 42." } }] },
    { model: "planner", toolCalls: [{ name: "submit_plan", args: { plan: "The answer is 42.", instructions: ["add one to 41"], code: "def answer():\n    return 41 + 1" } }] },
    { model: "coder", toolCalls: [{ name: "write_code", args: { code: "def answer():\n    return 41 + 1" } }] },
    { model: "coder", toolCalls: [{ name: "write_test", args: { test: "print('answer:', answer())" } }] },
    { model: "conversation", expect: { contains: "answer: 42" }, toolCalls: [{ name: "reply", args: { response: "The answer is **42**." } }] },
  ],
};

/** The first cell waits for `go.flag`, the second (in flight at the owner's death) for `second.flag`. */
const TWO_CELL_RUN = {
  name: "a planner whose cells wait for the test's flags",
  turns: [
    { model: "conversation", toolCalls: [{ name: "reply", args: { response: "Let me work it out.", action: "generate_or_edit_vision_code" } }] },
    { model: "planner", toolCalls: [{ name: "execute_python", args: { thinking: "Wait for the flag.", code: "import os, time\nwhile not os.path.exists('go.flag'):\n    time.sleep(0.05)\nprint('first done')" } }] },
    { model: "planner", toolCalls: [{ name: "execute_python", args: { thinking: "Wait for the second flag.", code: "import os, time\nwhile not os.path.exists('second.flag'):\n    time.sleep(0.05)\nprint('second done')" } }] },
  ],
};

beforeAll(async () => {
  world = await startScaleOut(scenarioPath("hello.json"), { ARGUS_RESUME_RUNS: "on" });
}, 240_000);
afterAll(async () => {
  for (const watch of watches) watch.socket.disconnect();
  await world?.close();
});

const MOVED = /moved to another server, continuing/;
const ENDED = ["finished", "error", "stopped", "interrupted"] as const;

describe.skipIf(!haveRedis() || TEST_DB !== "postgres")("attacks on runs that resume on another instance (Postgres + Redis)", () => {
  it("the owner dies while the run waits for the person: the answer given while the new owner rebuilds the notebook is taken, and the run finishes", { timeout: 300_000 }, async () => {
    world.model.load(QUESTION_RUN);
    const session = (await world.callA("POST", "/api/sessions")).json as ScaleOutSession;
    const flag = path.join(world.dataDir, "sessions", session.id, "go.flag");
    const watch = await watchSession(world.b.url, session);
    watches.push(watch);
    writeFileSync(flag, "go");
    const started = await world.callA("POST", `/api/sessions/${session.id}/messages`, { token: session.token, body: { role: "user", content: "What is 41 plus one?" } });
    expect(started.status).toBe(202);
    const runId = started.json.runId as string;
    await watch.until(["awaiting_user_input"], 180_000, runId);
    const question = watch.messages.find((m) => m.runId === runId && m.role === "interaction")!;
    // The new owner's rebuild runs the first cell again: without the flag it waits, and its mark
    // says when it started. Only then does the test write into the workspace: while the new kernel
    // adopts it, the directory is moved under the workspace's lock, which a file written from
    // outside does not take (a flag written then once met the move: ENOENT on a loaded fresh clone).
    const startedMark = path.join(world.dataDir, "sessions", session.id, "started.mark");
    rmSync(flag);
    rmSync(startedMark);
    await world.crashA();
    await eventually(() => watch.messages.some((m) => m.runId === runId && MOVED.test(m.content)), "the client on B saw the run move").catch((error: unknown) => {
      // What B said and what the chat shows, to tell why the run did not go on.
      console.log(world.b.output().slice(-4000), watch.messages.map((m) => `${m.seq} ${m.role}: ${m.content.slice(0, 120)}`).join("\n"));
      throw error;
    });
    const answered = await world.callB("POST", `/api/sessions/${session.id}/messages`, { token: session.token, body: { role: "interaction_response", content: "yes", answers: question.seq } });
    expect(answered.json).toMatchObject({ runId });
    expect(answered.status).toBe(202);
    await eventually(() => existsSync(startedMark), "the rebuild ran the first cell again in the adopted workspace");
    writeFileSync(flag, "go");
    expect((await watch.until([...ENDED], 180_000, runId)).agentState).toBe("finished");
    const view = (await world.callB("GET", `/api/sessions/${session.id}`, { token: session.token })).json;
    const stored = (view.messages as StreamedMessage[]).filter((m) => m.runId === runId);
    if (process.env.ARGUS_TEST_DUMP) console.log(stored.map((m) => `${m.seq} ${m.item.type} ${m.role}: ${m.content.slice(0, 100)}`).join("\n"));
    // The answer came while the notebook was being rebuilt (its first cell waited for the flag).
    expect(stored.filter((m) => /run again to rebuild its state/.test(m.content))).toHaveLength(1);
    // One question, one answer, one notice; the run went on with the answer.
    expect(stored.filter((m) => m.role === "interaction")).toHaveLength(1);
    expect(stored.filter((m) => m.item.type === "redo" && m.item.kind === "moved")).toHaveLength(1);
    expect(stored.filter((m) => m.content.includes("the answer is 42"))).toHaveLength(1);
    expect(view.pending ?? null).toBeNull();
  });

  it("Stop while the new owner rebuilds the notebook (a recorded cell that waits when run again): the run stops, and nothing after it runs", { timeout: 300_000 }, async () => {
    world.model.load(TWO_CELL_RUN);
    const owner = await world.startInstance("stop-owner");
    const call = api(owner.url);
    const session = (await call("POST", "/api/sessions")).json as ScaleOutSession;
    const flag = path.join(world.dataDir, "sessions", session.id, "go.flag");
    const watch = await watchSession(world.b.url, session);
    watches.push(watch);
    writeFileSync(flag, "go");
    const started = await call("POST", `/api/sessions/${session.id}/messages`, { token: session.token, body: { role: "user", content: "Wait for the flags." } });
    const runId = started.json.runId as string;
    await eventually(() => watch.messages.some((m) => m.runId === runId && m.content.includes("second.flag")), "the second cell started");
    rmSync(flag);
    await world.crash(owner);
    await eventually(() => watch.messages.some((m) => m.runId === runId && MOVED.test(m.content)), "the client on B saw the run move");
    const stopped = await world.callB("POST", `/api/sessions/${session.id}/cancel`, { token: session.token });
    expect(stopped.status).toBeLessThan(300);
    expect((await watch.until([...ENDED], 180_000, runId)).agentState).toBe("stopped");
    const view = (await world.callB("GET", `/api/sessions/${session.id}`, { token: session.token })).json;
    expect(view.state).toBe("stopped");
    const stored = (view.messages as StreamedMessage[]).filter((m) => m.runId === runId);
    // The cell in flight was not run again after the stop, and no step is shown twice.
    expect(stored.filter((m) => m.role === "observation" && m.content.includes("second done"))).toHaveLength(0);
    const steps = stored.filter((m) => m.item.type !== "redo").map((m) => `${m.role}\u0000${m.content}`);
    expect(new Set(steps).size).toBe(steps.length);
  });
});
