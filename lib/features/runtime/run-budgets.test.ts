import { describe, expect, it } from "vitest";
import { checkRunBudgets } from "./run-budgets";
import { DEFAULT_RUN_LIMITS } from "./event-log";
import { RunEnded } from "./run-ending";
import { initialRunState } from "./state-reducer";

const limits = { ...DEFAULT_RUN_LIMITS, maxIterations: 3, maxTokens: 100, maxWallClockMs: 60_000 };
const state = initialRunState("r", limits);
const noEvents = async () => [];

async function endingOf(check: Parameters<typeof checkRunBudgets>[0]) {
  try {
    await checkRunBudgets(check);
    return null;
  } catch (error) {
    return error instanceof RunEnded ? error.ending : error;
  }
}

describe("a run's budgets", () => {
  it("let a run within its limits go on", async () => {
    expect(await endingOf({ state, limits, startedAt: Date.now(), runId: "r", events: noEvents })).toBeNull();
  });

  it("stop it at its step, token or time limit, saying which", async () => {
    expect(await endingOf({ state: { ...state, iteration: { global: 3, localByAgent: {} } }, limits, startedAt: Date.now(), runId: "r", events: noEvents })).toMatchObject({ kind: "budget", reason: expect.stringMatching(/3 steps/) });
    const spent = { ...state, metrics: { byAgent: {}, totals: { inputTokens: 80, outputTokens: 30, costUsd: null } } };
    expect(await endingOf({ state: spent, limits, startedAt: Date.now(), runId: "r", events: noEvents })).toMatchObject({ kind: "budget", reason: expect.stringMatching(/110 tokens/) });
    // The clock counts from the attempt's start: a continue starts it again.
    expect(await endingOf({ state, limits, startedAt: Date.now() - 61_000, runId: "r", events: noEvents })).toMatchObject({ kind: "budget", reason: expect.stringMatching(/time limit/) });
  });
});
