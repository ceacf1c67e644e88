import { describe, expect, it } from "vitest";
import { initialRunState } from "@/lib/features/runtime/state-reducer";
import { RunStateSchema, TERMINAL_AGENT_STATES, type RunLimits } from "./state";

const limits: RunLimits = { maxTurns: 10, maxTokens: 100_000, maxWallClockMs: 60_000, maxIterations: 50 };

describe("RunState schema", () => {
  it("accepts the initial state", () => {
    const state = initialRunState("run-1", limits);
    expect(RunStateSchema.parse(state)).toEqual(state);
  });

  it("accepts a busy state with per-agent figures", () => {
    const state = {
      ...initialRunState("run-1", limits, "2025-01-01T00:00:00Z"),
      agentState: "running",
      agent: "planner",
      delegateLevel: 2,
      delegateStack: ["conversation", "coder"],
      iteration: { global: 5, localByAgent: { planner: 4, conversation: 1 } },
      turn: 4,
      metrics: {
        byAgent: { planner: { inputTokens: 10, outputTokens: 2, costUsd: null, calls: 1 } },
        totals: { inputTokens: 10, outputTokens: 2, costUsd: null },
      },
    };
    expect(RunStateSchema.safeParse(state).success).toBe(true);
  });

  it("rejects an unknown agent state or agent", () => {
    const state = initialRunState("run-1", limits);
    expect(RunStateSchema.safeParse({ ...state, agentState: "rate_limited" }).success).toBe(false);
    expect(RunStateSchema.safeParse({ ...state, agent: "nobody" }).success).toBe(false);
  });

  it("treats interrupted as terminal", () => {
    expect(TERMINAL_AGENT_STATES).toContain("interrupted");
    expect(TERMINAL_AGENT_STATES).not.toContain("awaiting_user_input");
  });
});
