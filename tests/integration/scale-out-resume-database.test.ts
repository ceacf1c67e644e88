/**
 * A run cut off by a database outage goes on once Postgres is back (issue #30, "Same for a run
 * interrupted by a database outage"), with resuming on. The engines world of
 * scale-out-engines.test.ts, because it has a Postgres of its own to halt and start again (the
 * suite's shared Postgres serves every other file of the pass): two instances, one Postgres, one
 * Redis, one shared Jupyter. The run's second cell waits for a flag file, so its next write lands
 * exactly while the database is down; every wait is for an event or a state, never a clock.
 */
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";
import type { Scenario } from "@/scripted-model/server";
import { scenarioPath, watchSession, type Watch } from "@/tests/helpers/agent-run";
import { ANSWER_42_TURNS } from "@/tests/helpers/answer-42";
import { haveRedis } from "@/tests/helpers/redis-server";
import { eventually, startScaleOutOnEngines, storedSeqs, type ScaleOutOnEngines, type ScaleOutSession } from "@/tests/helpers/scale-out";
import { TEST_DB } from "@/tests/helpers/test-engines";

let world: ScaleOutOnEngines;
let watch: Watch | null = null;

/**
 * `base` is set by the first cell, before the outage; the second says it waits (a file the test
 * sees: the kernel is sandboxed on the Jupyter host, its workspace is the one directory both share),
 * waits for the test's flag, then needs `base`.
 */
const WAITING_CELL = "import os, pathlib, time\npathlib.Path('waiting.flag').write_text('1')\nwhile not os.path.exists('go.flag'):\n    time.sleep(0.05)\nprint('the answer is', base + 1)";
const OUTAGE_RUN: Scenario = {
  name: "a planner whose waiting cell ends while the database is down and needs the first cell's variable",
  turns: [
    { model: "conversation", toolCalls: [{ name: "reply", args: { response: "Let me work it out.", action: "generate_or_edit_vision_code" } }] },
    { model: "planner", toolCalls: [{ name: "execute_python", args: { thinking: "Set the base.", code: "base = 41\nprint('base is set')" } }] },
    { model: "planner", expect: { contains: "base is set" }, toolCalls: [{ name: "execute_python", args: { thinking: "Wait for the flag, then use the base.", code: WAITING_CELL } }] },
    // Only a notebook that still had (or got back) `base` printed this (a NameError otherwise).
    { model: "planner", expect: { contains: "the answer is 42" }, toolCalls: [{ name: "finalize_plan", args: { thinking: "The answer is 42." } }] },
    ...ANSWER_42_TURNS,
  ],
};

beforeAll(async () => {
  if (haveRedis() && TEST_DB === "postgres") world = await startScaleOutOnEngines(scenarioPath("hello.json"), { ARGUS_RESUME_RUNS: "on" });
}, 240_000);
afterAll(async () => {
  if (process.env.ARGUS_TEST_DUMP) writeFileSync(`${process.env.ARGUS_TEST_DUMP}.b.log`, world?.b.output() ?? "");
  watch?.socket.disconnect();
  await world?.close();
});


const UNREACHABLE = /The database was unreachable for a moment; continuing this run/;

// Postgres pass only (scripts/test.sh POSTGRES_PASS): the world brings its own Postgres either way.
describe.skipIf(!haveRedis() || TEST_DB !== "postgres")("a run cut off by a database outage, resuming on (Postgres + Redis)", () => {
  it("the run's write fails while Postgres is down; once it is back the same instance goes on from the log, says so once, and the run finishes", { timeout: 300_000 }, async () => {
    // B serves alone, as after a crash behind a load balancer: with A alive, an outage longer than
    // a lease would let A's sweeper take the run over ("moved"), which scale-out-resume.test.ts covers.
    await world.crashA();
    world.model.load(OUTAGE_RUN);
    const session = (await world.callB("POST", "/api/sessions")).json as ScaleOutSession;
    watch = await watchSession(world.b.url, session);
    const started = await world.callB("POST", `/api/sessions/${session.id}/messages`, { token: session.token, body: { role: "user", content: "What is 41 plus one?" } });
    expect(started.status).toBe(202);
    const runId = started.json.runId as string;
    const workspace = path.join(world.jupyterRoot, "argus-workspaces", session.id);
    await eventually(() => existsSync(path.join(workspace, "waiting.flag")), "the waiting cell runs in the kernel");

    await world.postgres.halt();
    try {
      // The cell ends now: the run's next write (the cell's result) meets the unreachable database.
      writeFileSync(path.join(workspace, "go.flag"), "go");
      await eventually(() => world.b.output().includes(`could not record the end of run ${runId}`), "the run met the outage");
    } finally {
      await world.postgres.start();
    }

    // The same instance goes on with the run once the database answers again, and it finishes.
    expect((await watch.until(["finished", "error", "stopped", "interrupted"], 180_000, runId)).agentState).toBe("finished");
    // A person watching through B was told why, once (what a reconnect missed was caught up by until).
    expect(watch.messages.filter((m) => m.runId === runId && UNREACHABLE.test(m.content))).toHaveLength(1);

    const view = (await world.callB("GET", `/api/sessions/${session.id}`, { token: session.token })).json;
    const stored = (view.messages as StreamedMessage[]).filter((m) => m.runId === runId);
    if (process.env.ARGUS_TEST_DUMP) console.log(stored.map((m) => `${m.seq} ${m.item.type} ${m.role}: ${m.content.slice(0, 300)}`).join("\n"));
    expect(view.state).toBe("finished");
    // One notice, a typed chat item (a redo mark of kind "moved") in plain words; no "interrupted" ending.
    expect(stored.filter((m) => UNREACHABLE.test(m.content))).toHaveLength(1);
    expect(stored.filter((m) => m.item.type === "redo" && m.item.kind === "moved")).toHaveLength(1);
    expect(stored.some((m) => /database could not be reached/.test(m.content))).toBe(false);
    // No step twice: every action and observation of the run is stored once.
    const steps = stored.filter((m) => m.item.type !== "redo").map((m) => `${m.role}\u0000${m.content}`);
    expect(steps.length).toBeGreaterThan(0);
    expect(new Set(steps).size).toBe(steps.length);
    // The waiting cell, done again after the outage, still found `base` from before it.
    expect(stored.filter((m) => m.content.includes("the answer is 42"))).toHaveLength(1);
    expect(stored.some((m) => m.content.includes("NameError"))).toBe(false);
    expect(stored.some((m) => m.content.includes("The answer is **42**."))).toBe(true);
    // The log runs 1..n without a gap or a repeat.
    const seqs = await storedSeqs(world.databaseUrl, session.id);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    expect(world.b.output()).toMatch(new RegExp(`run ${runId} stopped: `));
    expect(world.b.output()).not.toMatch(/UnhandledPromiseRejection|run failed outside its controller/);
  });
});
