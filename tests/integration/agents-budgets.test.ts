import { afterAll, describe, expect, it } from "vitest";
import { scenarioPath, startAgentWorld, watchSession, type AgentWorld } from "@/tests/helpers/agent-run";

const worlds: AgentWorld[] = [];
afterAll(async () => {
  await Promise.all(worlds.map((w) => w.close()));
});

async function runScenario(file: string, env: Record<string, string> = {}) {
  const w = await startAgentWorld(scenarioPath(file), env);
  worlds.push(w);
  const session = (await w.call("POST", "/api/sessions")).json as { id: string; token: string };
  const watch = await watchSession(w.server.url, session);
  const posted = await w.call("POST", `/api/sessions/${session.id}/messages`, { token: session.token, body: { role: "user", content: "count them" } });
  const runId = posted.json.runId as string;
  const end = await watch.until(["finished", "error", "stopped"], 90_000, runId);
  const mine = watch.messages.filter((m) => m.runId === runId);
  return { w, end, mine };
}

describe("budgets and loops end a run cleanly", () => {
  it("moves the planner to its summary when its turns are used up", async () => {
    const { end, mine, w } = await runScenario("planner-turn-limit.json", { ARGUS_PLANNER_MAX_TURNS: "1" });
    expect(end.agentState).toBe("finished");
    expect(mine.filter((m) => m.role === "observation").length).toBeGreaterThanOrEqual(1);
    expect(w.model.requests.filter((r) => r.model === "planner")).toHaveLength(2);
  });

  it("stops a planner that repeats the same step, with a readable reason", async () => {
    const { end, mine, w } = await runScenario("stuck.json");
    expect(end.agentState).toBe("error");
    const error = mine.find((m) => m.role === "error_observation")!;
    expect(error.content).toMatch(/repeating themselves \(repeating action observation, 4 times\)/);
    // Stopped at the fifth attempt, not after all the turns it had.
    expect(w.model.requests.filter((r) => r.model === "planner")).toHaveLength(4);
  });

  it("stops a run that outlives its wall-clock budget", async () => {
    const { end, mine } = await runScenario("wall-clock.json", { ARGUS_RUN_MAX_MINUTES: "0.01" });
    expect(end.agentState, JSON.stringify(mine.filter((m) => m.role === "error_observation"))).toBe("stopped");
    expect(mine.find((m) => m.role === "error_observation")!.content).toMatch(/time limit/);
  });
});

describe("repairing code", () => {
  it("auto-fixes a failing planner cell and debugs the coder's failing test, then succeeds", async () => {
    const { end, mine, w } = await runScenario("autofix-debug.json");
    expect(end.agentState).toBe("finished");
    expect(end.tokens.input).toBeGreaterThan(0);
    expect(end.tokens.output).toBeGreaterThan(0);
    const observations = mine.filter((m) => m.role === "observation").map((m) => m.content);
    expect(observations[0]).toMatch(/NameError/);
    expect(observations[1]).toMatch(/42/);
    expect(observations.at(-1)).toMatch(/42/);
    expect(mine.filter((m) => m.role === "coder").at(-1)!.content).toMatch(/return 42/);
    expect(w.model.requests.every((r) => r.status === 200)).toBe(true);
  });
});
