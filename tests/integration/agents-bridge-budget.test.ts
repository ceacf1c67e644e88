import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startAgentWorld, watchSession, type AgentWorld } from "@/tests/helpers/agent-run";
import { tempDir } from "@/tests/helpers/temp-dir";

/**
 * Model-written code calling model-backed tools in a loop: `while True:
 * vqa(...)`. Every call is counted in the run's metrics, a cell may make only
 * so many, and the run's token and wall-clock budgets hold inside the loop,
 * so the run ends by itself, cleanly, with the reason in the chat.
 */

const scratch = tempDir("argus-bridge-budget-");
const worlds: AgentWorld[] = [];
afterAll(async () => {
  await Promise.all(worlds.map((w) => w.close()));
  scratch.cleanup();
});

const TINY = { prompt_tokens: 1, completion_tokens: 1 };
const LOOP = "while True:\n    vqa('Is the square red?')";

const conversation = { model: "conversation", usage: TINY, toolCalls: [{ name: "reply", args: { response: "Let me look.", action: "generate_or_edit_vision_code" } }] };
const plannerCell = (code: string) => ({ model: "planner", usage: TINY, toolCalls: [{ name: "execute_python", args: { thinking: "Ask, and ask again.", code } }] });
const vqaTurns = (n: number, usage: { prompt_tokens: number; completion_tokens: number }, slowMs?: number) =>
  Array.from({ length: n }, () => ({ model: "vqa", text: "Yes.", usage, ...(slowMs ? { fault: { type: "slow", ms: slowMs } } : {}) }));

async function run(name: string, turns: unknown[], env: Record<string, string>) {
  const file = path.join(scratch.dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ name, turns }));
  const w = await startAgentWorld(file, env);
  worlds.push(w);
  const session = (await w.call("POST", "/api/sessions")).json as { id: string; token: string };
  const watch = await watchSession(w.server.url, session);
  const posted = await w.call("POST", `/api/sessions/${session.id}/messages`, { token: session.token, body: { role: "user", content: "Is it red?" } });
  const end = await watch.until(["finished", "error", "stopped"], 120_000, posted.json.runId);
  const mine = watch.messages.filter((m) => m.runId === posted.json.runId);
  return { end, mine, vqaCalls: w.model.requests.filter((r) => r.model === "vqa").length };
}

describe("model-backed tool calls from a cell", () => {
  it("are bounded per cell and counted in the run's tokens, which then stop the run", async () => {
    const { end, mine, vqaCalls } = await run(
      "per-cell",
      [conversation, plannerCell(LOOP), ...vqaTurns(5, { prompt_tokens: 90, completion_tokens: 10 }), plannerCell(LOOP), ...vqaTurns(5, { prompt_tokens: 90, completion_tokens: 10 }), ...vqaTurns(5, TINY)],
      { ARGUS_BRIDGE_CALLS_PER_CELL: "5", ARGUS_RUN_MAX_TOKENS: "1000" },
    );
    expect(vqaCalls).toBe(10);
    const observations = mine.filter((m) => m.role === "observation");
    expect(observations).toHaveLength(2);
    for (const o of observations) expect(o.content).toMatch(/already made 5 calls to model-backed tools/);
    expect(end.agentState).toBe("stopped");
    // Six tiny steps plus ten 100-token vqa calls.
    expect(end.tokens.input + end.tokens.output).toBe(1006);
    expect(mine.find((m) => m.role === "error_observation")?.content).toMatch(/1006 tokens \(limit 1000\)/);
  });

  it("stop once the run's token budget is spent, inside the loop", async () => {
    const { end, mine, vqaCalls } = await run("tokens", [conversation, plannerCell(LOOP), ...vqaTurns(20, { prompt_tokens: 250, completion_tokens: 50 })], { ARGUS_RUN_MAX_TOKENS: "1000" });
    expect(vqaCalls).toBe(4);
    expect(mine.find((m) => m.role === "observation")?.content).toMatch(/token budget is used up/);
    expect(end.agentState).toBe("stopped");
    expect(end.tokens.input + end.tokens.output).toBeGreaterThanOrEqual(1200);
  });

  it("stop once the run's wall clock is spent, inside the loop", async () => {
    const { end, mine, vqaCalls } = await run("clock", [conversation, plannerCell(LOOP), ...vqaTurns(30, TINY, 400)], { ARGUS_RUN_MAX_MINUTES: "0.04" });
    expect(vqaCalls).toBeLessThan(30);
    expect(mine.find((m) => m.role === "observation")?.content).toMatch(/time budget is used up/);
    expect(end.agentState).toBe("stopped");
    expect(mine.find((m) => m.role === "error_observation")?.content).toMatch(/time limit/);
  });
});
