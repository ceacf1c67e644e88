import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";
import type { SyncAck } from "@/lib/foundation/protocol/socket";
import { loadScenario } from "@/scripted-model/server";
import { scenarioPath, watchSession, type Watch } from "@/tests/helpers/agent-run";
import { haveRedis } from "@/tests/helpers/redis-server";
import { eventually, shape, startScaleOut, transcript, type ScaleOutWorld } from "@/tests/helpers/scale-out";

/**
 * Two real Argus instances ("a" and "b") sharing one database and one Redis
 * (redis-server started by the test, on loopback, in a scratch directory),
 * each with its own jupyter-server. Runs are started through A; a person's
 * client is connected to B. Every wait is for a state, never a clock.
 */
type Session = { id: string; token: string };
let world: ScaleOutWorld;
const watches: Watch[] = [];

beforeAll(async () => {
  world = await startScaleOut(scenarioPath("ask-mid-run.json"));
}, 240_000);
afterAll(async () => {
  if (process.env.ARGUS_TEST_DUMP) for (const [name, server] of [["a", world?.a], ["b", world?.b]] as const) if (server) writeFileSync(`${process.env.ARGUS_TEST_DUMP}.${name}.log`, server.output());
  for (const w of watches) w.socket.disconnect();
  await world?.close();
});

async function newSession(): Promise<Session> {
  return (await world.callA("POST", "/api/sessions")).json as Session;
}

async function watchOnB(session: Session): Promise<Watch> {
  const watch = await watchSession(world.b.url, session);
  watches.push(watch);
  return watch;
}

describe.skipIf(!haveRedis())("two instances, one database, one Redis", () => {
  it("a client on B watches a run started through A, answers its question through B, and A resumes with the kernel intact", async () => {
    world.model.load(loadScenario(scenarioPath("ask-mid-run.json")));
    const session = await newSession();
    const watch = await watchOnB(session);
    const started = await world.callA("POST", `/api/sessions/${session.id}/messages`, {
      token: session.token,
      body: { role: "user", content: "Count the coins, please." },
    });
    expect(started.status).toBe(202);
    const runId = started.json.runId as string;
    await watch.until(["awaiting_user_input"], 120_000, runId);
    const question = watch.messages.find((m) => m.role === "interaction")!;
    expect(question).toBeDefined();

    // The answer goes to B, which does not run the session: B sends it to A, the owner.
    const answered = await world.callB("POST", `/api/sessions/${session.id}/messages`, {
      token: session.token,
      body: { role: "interaction_response", content: JSON.stringify({ answer: "Watershed" }), answers: question.seq },
    });
    expect(answered.status).toBe(202);
    expect(answered.json).toEqual({ runId, resumed: true });
    expect((await watch.until(["finished", "error", "stopped"], 180_000, runId)).agentState).toBe("finished");

    // The planner's variable from before the pause was still there: the run resumed on A, in its kernel.
    expect(watch.messages.filter((m) => m.role === "observation").map((m) => m.content).join("\n")).toMatch(/still here: 150/);

    // Everything B's client saw is the transcript: every message once, in order, nothing missing.
    const stored = await transcript(world.callB, session);
    await eventually(() => watch.messages.length >= stored.length, "B's client received the whole transcript");
    expect(watch.messages.map(shape)).toEqual(stored.map(shape));
    expect(await transcript(world.callA, session)).toEqual(stored);
  });

  it("a cancel sent to B stops the run executing on A", async () => {
    world.model.load(loadScenario(scenarioPath("cancel.json")));
    const session = await newSession();
    const watch = await watchOnB(session);
    const started = await world.callA("POST", `/api/sessions/${session.id}/messages`, {
      token: session.token,
      body: { role: "user", content: "Take your time." },
    });
    const runId = started.json.runId as string;
    // The planner's 120 s cell is running on A.
    await eventually(() => watch.messages.some((m) => m.runId === runId && m.content.includes("time.sleep(120)")), "the long cell started");

    // The owner's refusals come back as they are: no question is waiting, and a run is going.
    const noQuestion = await world.callB("POST", `/api/sessions/${session.id}/messages`, {
      token: session.token,
      body: { role: "interaction_response", content: "Watershed" },
    });
    expect(noQuestion.status).toBe(409);
    expect(noQuestion.json.error.message).toMatch(/no question waiting/);
    const second = await world.callB("POST", `/api/sessions/${session.id}/messages`, { token: session.token, body: { role: "user", content: "And another thing" } });
    expect(second.status).toBe(409);
    expect(second.json.error.message).toMatch(/already in progress/);

    const cancelled = await world.callB("POST", `/api/sessions/${session.id}/cancel`, { token: session.token });
    expect(cancelled.status).toBe(202);
    expect(cancelled.json).toEqual({ runId });
    expect((await watch.until(["stopped", "error", "finished", "interrupted"], 120_000, runId)).agentState).toBe("stopped");
    await eventually(async () => (await world.callA("GET", `/api/sessions/${session.id}`, { token: session.token })).json.state === "stopped", "A's view says stopped");
    expect((await world.callB("GET", `/api/sessions/${session.id}`, { token: session.token })).json.state).toBe("stopped");
    // The session is free again: B refuses a second cancel plainly.
    expect((await world.callB("POST", `/api/sessions/${session.id}/cancel`, { token: session.token })).status).toBe(409);
  });

  it("while Redis is down the run goes on and both instances serve; once it is back delivery resumes and sync fills the gap", async () => {
    world.model.load(loadScenario(scenarioPath("slow-run.json")));
    const session = await newSession();
    const watch = await watchOnB(session);
    let resyncs = 0;
    watch.socket.on("resync", () => resyncs++);
    const started = await world.callA("POST", `/api/sessions/${session.id}/messages`, {
      token: session.token,
      body: { role: "user", content: "Three steps, please." },
    });
    const runId = started.json.runId as string;
    await eventually(() => watch.messages.some((m) => m.runId === runId && m.content.includes("step 1 done")), "step 1 reached B");

    // Redis goes away (SIGKILL: no goodbye) and comes back empty.
    await world.redis.stop("SIGKILL");
    // Neither instance crashes nor hangs: the run on A goes on, and B answers from the database.
    await eventually(
      async () => (await transcript(world.callB, session)).some((m) => m.content.includes("step 2 done")),
      "step 2 persisted while Redis was down",
    );
    const health = await world.callA("GET", "/api/health");
    expect(health.status).toBe(200);
    expect(health.json).toMatchObject({ db: "up", redis: "down", instance: "a" });
    // A cancel for A's run sent to B cannot reach A now: a plain 503 at once, and it is not
    // delivered later (the run below still finishes).
    const unreachable = await world.callB("POST", `/api/sessions/${session.id}/cancel`, { token: session.token });
    expect(unreachable.status).toBe(503);
    expect(unreachable.json.error.message).toMatch(/did not answer; try again/);
    const seenWhileDown = watch.messages.length;
    await world.redis.start();

    // Delivery resumes: the run's end reaches B live, and B tells its clients to sync again.
    expect((await watch.until(["finished", "error", "stopped"], 180_000, runId)).agentState).toBe("finished");
    expect(watch.messages.length).toBeGreaterThan(seenWhileDown);
    await eventually(() => resyncs > 0, "B sent resync after Redis came back");

    // What the client does on resync: sync from the start and merge by seq. Live messages plus
    // that sync are exactly the transcript, each once, in order.
    const ack = (await watch.socket.timeout(10_000).emitWithAck("sync", { afterSeq: 0 })) as SyncAck;
    expect(ack.ok).toBe(true);
    const merged = new Map<number, StreamedMessage>();
    for (const m of watch.messages) merged.set(m.seq, m);
    if (ack.ok) for (const m of ack.messages) merged.set(m.seq, m);
    const stored = await transcript(world.callB, session);
    expect([...merged.values()].sort((x, y) => x.seq - y.seq).map(shape)).toEqual(stored.map(shape));
    // Live delivery never repeats a message.
    expect(new Set(watch.messages.map((m) => m.seq)).size).toBe(watch.messages.length);
    // Each instance said once that Redis was gone and once that it was back, and nothing threw.
    for (const server of [world.a, world.b]) {
      expect(server.output()).toMatch(/Redis at redis:\/\/127\.0\.0\.1:\d+\/? is unreachable/);
      expect(server.output()).toMatch(/Redis is back/);
      // Node's unhandled-rejection report and Argus's own "outside its controller" line; the output
      // also carries jupyter-server's log, whose "Uncaught exception" lines under load are not Argus's.
      expect(server.output()).not.toMatch(/UnhandledPromiseRejection|Unhandled rejection|run failed outside its controller/);
    }
  });

  it("kill -9 of A mid-run: B marks the run interrupted with a note in the chat, and the next message runs on B", async () => {
    world.model.load(loadScenario(scenarioPath("cancel.json")));
    const session = await newSession();
    const watch = await watchOnB(session);
    const started = await world.callA("POST", `/api/sessions/${session.id}/messages`, {
      token: session.token,
      body: { role: "user", content: "Take your time." },
    });
    const runId = started.json.runId as string;
    await eventually(() => watch.messages.some((m) => m.runId === runId && m.content.includes("time.sleep(120)")), "the long cell started");

    const killedAt = Date.now();
    await world.crashA();
    expect((await watch.until(["interrupted", "stopped", "error", "finished"], 120_000, runId)).agentState).toBe("interrupted");
    console.log(`[scale-out] B noticed A's death after ${Date.now() - killedAt} ms (lease 10 s; the bound is checked in lease-policy.test.ts)`);
    const note = watch.messages.find((m) => m.runId === runId && /instance running it stopped responding/.test(m.content));
    expect(note).toBeDefined();
    // Why it did not go on there is in the chat too (this world turns resuming off).
    expect(note!.content).toMatch(/another instance could not continue it \(resuming runs is off \(ARGUS_RESUME_RUNS=off\)\)/);
    expect((await world.callB("GET", `/api/sessions/${session.id}`, { token: session.token })).json.state).toBe("interrupted");

    // The session is free: the next message runs on B.
    const next = await world.callB("POST", `/api/sessions/${session.id}/messages`, {
      token: session.token,
      body: { role: "user", content: "Are you still there?" },
    });
    expect(next.status).toBe(202);
    const nextRun = next.json.runId as string;
    expect((await watch.until(["finished", "error", "stopped"], 120_000, nextRun)).agentState).toBe("finished");
    expect(watch.messages.some((m) => m.runId === nextRun && m.content.includes("Yes, ready when you are."))).toBe(true);
  });
});
