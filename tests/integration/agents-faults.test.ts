import { afterAll, describe, expect, it } from "vitest";
import { scenarioPath, startAgentWorld, watchSession, type AgentWorld, type Watch } from "@/tests/helpers/agent-run";

const worlds: AgentWorld[] = [];
afterAll(async () => {
  await Promise.all(worlds.map((w) => w.close()));
});

async function world(scenario: string, env: Record<string, string> = {}) {
  const w = await startAgentWorld(scenarioPath(scenario), env);
  worlds.push(w);
  const session = (await w.call("POST", "/api/sessions")).json as { id: string; token: string };
  const watch = await watchSession(w.server.url, session);
  const send = async (content: string) => {
    const res = await w.call("POST", `/api/sessions/${session.id}/messages`, { token: session.token, body: { role: "user", content } });
    return { status: res.status, runId: res.json?.runId as string, json: res.json };
  };
  return { w, session, watch, send };
}

const errorsOf = (watch: Watch, runId: string) =>
  watch.messages.filter((m) => m.runId === runId && m.role === "error_observation").map((m) => m.content);

describe("bad model output", () => {
  it("feeds it back at most twice, then ends the run with a readable error; the session stays usable", async () => {
    const { watch, send, w } = await world("bad-output.json");
    const first = await send("hi");
    expect((await watch.until(["error", "finished"], 90_000, first.runId)).agentState).toBe("error");
    const [error] = errorsOf(watch, first.runId);
    expect(error).toMatch(/conversation/i);
    expect(error).toMatch(/not valid JSON|did not call|tool/i);
    expect(w.model.requests.filter((r) => r.model === "conversation")).toHaveLength(3);

    const second = await send("second try");
    expect((await watch.until(["finished", "error"], 90_000, second.runId)).agentState).toBe("finished");
    expect(watch.messages.filter((m) => m.runId === second.runId && m.role === "conversation").map((m) => m.content)).toEqual(["Hello again!"]);

    const third = await send("third");
    expect((await watch.until(["finished", "error"], 90_000, third.runId)).agentState).toBe("finished");
    expect(watch.messages.filter((m) => m.runId === third.runId && m.role === "conversation").map((m) => m.content)).toEqual(["Fixed my answer."]);

    // A 200 KB reply, a refusal and an unknown tool: three bad replies in a row.
    const fourth = await send("fourth");
    expect((await watch.until(["error", "finished"], 90_000, fourth.runId)).agentState).toBe("error");
    expect(errorsOf(watch, fourth.runId).join("\n")).toMatch(/shout|unknown|not a tool|refus/i);
  });
});

describe("the model endpoint failing", () => {
  it("retries 5xx, reports a readable error, never retries a bad key, honours Retry-After, and recovers", async () => {
    const { watch, send, w } = await world("model-down.json", { ARGUS_MODEL_MAX_RETRIES: "2" });
    const first = await send("one");
    expect((await watch.until(["error", "finished"], 90_000, first.runId)).agentState).toBe("error");
    expect(errorsOf(watch, first.runId).join("\n")).toMatch(/server|500|503|upstream|overloaded/i);
    expect(w.model.requests).toHaveLength(3);

    const second = await send("two");
    expect((await watch.until(["error", "finished"], 90_000, second.runId)).agentState).toBe("error");
    expect(errorsOf(watch, second.runId).join("\n")).toMatch(/API key|401/);
    expect(w.model.requests).toHaveLength(4);

    const t0 = Date.now();
    const third = await send("three");
    expect((await watch.until(["finished", "error"], 90_000, third.runId)).agentState).toBe("finished");
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    expect(watch.messages.filter((m) => m.runId === third.runId && m.role === "conversation").map((m) => m.content)).toEqual(["Back online."]);
  });
});

describe("cancel", () => {
  it("stops a long cell within a second, refuses a second run meanwhile, and the next message works", async () => {
    const { watch, send, w, session } = await world("cancel.json");
    const first = await send("slow please");
    for (let i = 0; i < 200 && !watch.messages.some((m) => m.role === "planner"); i++) await new Promise((r) => setTimeout(r, 25));
    await new Promise((r) => setTimeout(r, 300));
    const busy = await send("another");
    expect(busy.status).toBe(409);
    expect(busy.json.error.message).toMatch(/already in progress/);

    const t0 = Date.now();
    const cancelled = await w.call("POST", `/api/sessions/${session.id}/cancel`, { token: session.token });
    expect(cancelled.status).toBe(202);
    expect(cancelled.json.runId).toBe(first.runId);
    const end = await watch.until(["stopped", "error", "finished"], 90_000, first.runId);
    expect(end.agentState).toBe("stopped");
    expect(Date.now() - t0).toBeLessThan(3000);
    // The stopped cell is recorded as stopped (not left running), and the stop itself is in the transcript.
    const items = watch.messages.filter((m) => m.runId === first.runId).map((m) => m.item);
    expect(items).toContainEqual(expect.objectContaining({ type: "cell_output", stopped: true }));
    expect(items.at(-1)).toEqual({ type: "stopped" });

    const next = await send("still there?");
    expect(next.status).toBe(202);
    expect((await watch.until(["finished", "error"], 90_000, next.runId)).agentState).toBe("finished");
    expect((await w.call("POST", `/api/sessions/${session.id}/cancel`, { token: session.token })).status).toBe(409);
  });
});

describe("a kernel that dies during a planner turn", () => {
  it("is reported in the observation, replaced, and the planner carries on", async () => {
    const { watch, send } = await world("kernel-dies.json");
    const run = await send("go");
    expect((await watch.until(["finished", "error"], 90_000, run.runId)).agentState).toBe("finished");
    const observations = watch.messages.filter((m) => m.runId === run.runId && m.role === "observation").map((m) => m.content);
    expect(observations[0]).toMatch(/KernelDied/);
    expect(observations[1]).toMatch(/alive False/);
  });
});
