import { describe, expect, it } from "vitest";
import type { ArgusEvent } from "@/lib/foundation/protocol/events";
import { RunStateSchema, type RunLimits } from "@/lib/foundation/protocol/state";
import { fromDict, toDict } from "./serialization";
import { initialRunState, rebuildRunState, reduceRunState } from "./state-reducer";

const limits: RunLimits = { maxTurns: 10, maxTokens: 100_000, maxWallClockMs: 600_000, maxIterations: 50 };
const RUN = "run-1";
let clock = 0;
const at = () => `2025-01-01T00:00:${String(clock++).padStart(2, "0")}Z`;

function ev(d: Record<string, unknown>): ArgusEvent {
  return fromDict({ runId: RUN, timestamp: at(), ...d });
}

const usage = (prompt_tokens: number, completion_tokens: number, accumulated_cost?: number) => ({
  llm_metrics: {
    accumulated_token_usage: { prompt_tokens, completion_tokens },
    ...(accumulated_cost === undefined ? {} : { accumulated_cost }),
  },
});

const stateChange = (agent_state: string, reason = "") =>
  ev({ source: "environment", observation: "agent_state_changed", extras: { agent_state, reason } });

/** A whole run: conversation → coder → planner (two turns and a question) → back up. */
function scriptedRun(): ArgusEvent[] {
  clock = 0;
  return [
    ev({ source: "user", action: "message", args: { content: "count coins" } }),
    stateChange("running"),
    ev({ source: "agent", agent: "conversation", action: "message", args: { content: "On it." }, ...usage(100, 10, 0.001) }),
    ev({ source: "agent", agent: "conversation", action: "delegate", args: { agent: "coder" } }),
    ev({ source: "agent", agent: "coder", action: "delegate", args: { agent: "planner" } }),
    ev({ source: "agent", agent: "planner", action: "run_ipython", args: { code: "a" }, ...usage(200, 20) }),
    ev({ source: "environment", observation: "run_ipython", content: "ok", extras: { code: "a" } }),
    ev({ source: "agent", agent: "planner", action: "interaction", args: { kind: "question", prompt: "?" }, ...usage(300, 30, 0.002) }),
    stateChange("awaiting_user_input"),
    ev({ source: "user", cause: 7, action: "message", args: { content: "a" } }),
    stateChange("running"),
    ev({ source: "agent", agent: "planner", action: "finish", args: { outputs: { plan: "p" } }, ...usage(50, 5) }),
    ev({ source: "environment", observation: "delegate", extras: { outputs: { plan: "p" } } }),
    ev({ source: "agent", agent: "coder", action: "run_ipython", args: { code: "test" }, ...usage(400, 40) }),
    ev({ source: "environment", observation: "run_ipython", content: "passed", extras: { code: "test" } }),
    ev({ source: "agent", agent: "coder", action: "finish", args: { outputs: { code: "c", test: "t" } } }),
    ev({ source: "environment", observation: "delegate", extras: { outputs: { code: "c", test: "t" } } }),
    ev({ source: "agent", agent: "conversation", action: "message", args: { content: "3 coins." }, ...usage(10, 1) }),
    stateChange("finished"),
  ];
}

describe("initialRunState", () => {
  it("starts loading at the conversation agent with empty figures", () => {
    const s = initialRunState(RUN, limits);
    expect(s).toMatchObject({
      runId: RUN,
      agentState: "loading",
      agent: "conversation",
      delegateLevel: 0,
      iteration: { global: 0, localByAgent: {} },
      turn: 0,
      maxTurns: 10,
      lastError: null,
      startedAt: null,
      finishedAt: null,
    });
    expect(s.metrics.totals).toEqual({ inputTokens: 0, outputTokens: 0, costUsd: null });
    expect(RunStateSchema.safeParse(s).success).toBe(true);
  });
});

describe("reduceRunState", () => {
  it("does not mutate the previous state", () => {
    const s0 = initialRunState(RUN, limits);
    const copy = structuredClone(s0);
    reduceRunState(s0, ev({ source: "agent", agent: "planner", action: "run_ipython", args: { code: "x" }, ...usage(1, 1) }));
    expect(s0).toEqual(copy);
  });

  it("ignores events of other runs and events without a run", () => {
    const s0 = initialRunState(RUN, limits);
    const other = fromDict({ runId: "run-2", source: "agent", action: "run", args: { command: "ls" } });
    const none = fromDict({ source: "agent", action: "run", args: { command: "ls" } });
    expect(reduceRunState(s0, other)).toBe(s0);
    expect(reduceRunState(s0, none)).toBe(s0);
  });

  it("counts agent steps globally and per agent; turn follows the planner", () => {
    clock = 0;
    let s = initialRunState(RUN, limits);
    s = reduceRunState(s, ev({ source: "agent", agent: "conversation", action: "message", args: { content: "hi" } }));
    s = reduceRunState(s, ev({ source: "agent", agent: "planner", action: "run_ipython", args: { code: "1" } }));
    s = reduceRunState(s, ev({ source: "agent", agent: "planner", action: "run_ipython", args: { code: "2" } }));
    expect(s.iteration).toEqual({ global: 3, localByAgent: { conversation: 1, planner: 2 } });
    expect(s.turn).toBe(2);
  });

  it("does not count user actions, observations, delegate, finish, reject or null", () => {
    let s = initialRunState(RUN, limits);
    for (const e of [
      ev({ source: "user", action: "message", args: { content: "hi" } }),
      ev({ source: "environment", observation: "run_ipython", extras: { code: "" } }),
      ev({ source: "agent", agent: "conversation", action: "delegate", args: { agent: "coder" } }),
      ev({ source: "agent", agent: "coder", action: "finish" }),
      ev({ source: "agent", agent: "coder", action: "reject" }),
      ev({ source: "agent", action: "null" }),
    ]) {
      s = reduceRunState(s, e);
    }
    expect(s.iteration.global).toBe(0);
  });

  it("attributes an unattributed step to the agent currently stepping", () => {
    let s = initialRunState(RUN, limits);
    s = reduceRunState(s, ev({ source: "agent", agent: "conversation", action: "delegate", args: { agent: "planner" } }));
    s = reduceRunState(s, ev({ source: "agent", action: "run_ipython", args: { code: "x" }, ...usage(5, 1) }));
    expect(s.iteration.localByAgent).toEqual({ planner: 1 });
    expect(s.metrics.byAgent.planner?.inputTokens).toBe(5);
  });

  it("tracks delegation as a stack", () => {
    let s = initialRunState(RUN, limits);
    s = reduceRunState(s, ev({ source: "agent", agent: "conversation", action: "delegate", args: { agent: "coder" } }));
    s = reduceRunState(s, ev({ source: "agent", agent: "coder", action: "delegate", args: { agent: "planner" } }));
    expect(s).toMatchObject({ agent: "planner", delegateLevel: 2, delegateStack: ["conversation", "coder"] });
    s = reduceRunState(s, ev({ source: "environment", observation: "delegate" }));
    expect(s).toMatchObject({ agent: "coder", delegateLevel: 1, delegateStack: ["conversation"] });
    s = reduceRunState(s, ev({ source: "environment", observation: "delegate" }));
    expect(s).toMatchObject({ agent: "conversation", delegateLevel: 0, delegateStack: [] });
    // An unmatched return does not go below the root.
    s = reduceRunState(s, ev({ source: "environment", observation: "delegate" }));
    expect(s).toMatchObject({ agent: "conversation", delegateLevel: 0 });
  });

  it("adds each event's usage to its agent and the totals", () => {
    let s = initialRunState(RUN, limits);
    s = reduceRunState(s, ev({ source: "agent", agent: "planner", action: "run_ipython", args: { code: "1" }, ...usage(100, 10) }));
    s = reduceRunState(s, ev({ source: "agent", agent: "planner", action: "run_ipython", args: { code: "2" }, ...usage(150, 15, 0.5) }));
    s = reduceRunState(s, ev({ source: "agent", agent: "coder", action: "run_ipython", args: { code: "3" }, ...usage(1, 2) }));
    expect(s.metrics.byAgent.planner).toEqual({ inputTokens: 250, outputTokens: 25, costUsd: 0.5, calls: 2 });
    expect(s.metrics.byAgent.coder).toEqual({ inputTokens: 1, outputTokens: 2, costUsd: null, calls: 1 });
    expect(s.metrics.totals).toEqual({ inputTokens: 251, outputTokens: 27, costUsd: 0.5 });
  });

  it("ignores llm_metrics that report nothing", () => {
    const s0 = initialRunState(RUN, limits);
    const s1 = reduceRunState(s0, ev({ source: "agent", agent: "planner", action: "finish", llm_metrics: { max_budget_per_task: 1 } }));
    expect(s1.metrics).toEqual(s0.metrics);
  });

  it("follows agent_state_changed, recording errors and the finish time", () => {
    clock = 0;
    let s = initialRunState(RUN, limits);
    s = reduceRunState(s, stateChange("running"));
    expect(s).toMatchObject({ agentState: "running", finishedAt: null, startedAt: "2025-01-01T00:00:00Z" });
    const failed = stateChange("error", "Model refused twice.");
    s = reduceRunState(s, failed);
    expect(s).toMatchObject({ agentState: "error", lastError: "Model refused twice.", finishedAt: failed.timestamp });
    s = reduceRunState(s, stateChange("running"));
    expect(s).toMatchObject({ agentState: "running", finishedAt: null, lastError: "Model refused twice." });
    s = reduceRunState(s, stateChange("error"));
    expect(s.lastError).toBe("The run failed.");
    s = reduceRunState(s, stateChange("interrupted"));
    expect(s.finishedAt).not.toBeNull();
  });

  it("moves updatedAt with each timestamped event", () => {
    clock = 0;
    let s = initialRunState(RUN, limits, "2024-12-31T23:59:59Z");
    s = reduceRunState(s, stateChange("running"));
    expect(s.startedAt).toBe("2024-12-31T23:59:59Z");
    expect(s.updatedAt).toBe("2025-01-01T00:00:00Z");
    s = reduceRunState(s, fromDict({ runId: RUN, observation: "null" }));
    expect(s.updatedAt).toBe("2025-01-01T00:00:00Z");
  });
});

describe("a whole run", () => {
  it("ends finished with the right counts", () => {
    const s = rebuildRunState(RUN, scriptedRun(), limits);
    expect(s).toMatchObject({
      agentState: "finished",
      agent: "conversation",
      delegateLevel: 0,
      iteration: { global: 5, localByAgent: { conversation: 2, planner: 2, coder: 1 } },
      turn: 2,
      lastError: null,
      startedAt: "2025-01-01T00:00:00Z",
      finishedAt: "2025-01-01T00:00:18Z",
      updatedAt: "2025-01-01T00:00:18Z",
    });
    expect(s.metrics.totals).toEqual({ inputTokens: 1060, outputTokens: 106, costUsd: 0.003 });
    expect(s.metrics.byAgent.planner).toEqual({ inputTokens: 550, outputTokens: 55, costUsd: 0.002, calls: 3 });
    expect(RunStateSchema.safeParse(s).success).toBe(true);
  });

  it("rebuild equals incremental reduction at every prefix", () => {
    const events = scriptedRun();
    let incremental = initialRunState(RUN, limits);
    events.forEach((e, i) => {
      incremental = reduceRunState(incremental, e);
      expect(rebuildRunState(RUN, events.slice(0, i + 1), limits)).toEqual(incremental);
    });
  });

  it("rebuild skips other runs interleaved in the session log", () => {
    const events = scriptedRun();
    const noise = fromDict({ runId: "run-0", timestamp: "2030-01-01T00:00:00Z", source: "agent", agent: "planner", action: "run_ipython", args: { code: "z" } });
    const mixed = [noise, ...events.slice(0, 5), noise, ...events.slice(5)];
    expect(rebuildRunState(RUN, mixed, limits)).toEqual(rebuildRunState(RUN, events, limits));
  });

  it("rebuild works from events persisted with toDict", () => {
    const events = scriptedRun();
    const stored = events.map((e) => JSON.parse(JSON.stringify(toDict(e))) as unknown).map(fromDict);
    expect(rebuildRunState(RUN, stored, limits)).toEqual(rebuildRunState(RUN, events, limits));
  });
});
