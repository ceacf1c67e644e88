import type { ArgusEvent } from "@/lib/foundation/protocol/events";
import type { RunLimits, RunState } from "@/lib/foundation/protocol/state";
import { RunEnded } from "./run-ending";
import { detectStuck } from "./stuck-detector";

/** What a budget check looks at: the run's state, its limits, when its current attempt started, and its events. */
export interface BudgetCheck {
  state: RunState;
  limits: RunLimits;
  /** Ms since the epoch: the run started, or was last continued. */
  startedAt: number;
  runId: string;
  /** The session's events since the run's first (read only when the cheaper checks pass). */
  events: () => Promise<ArgusEvent[]>;
}

/** Throws RunEnded when a step, token or time limit ran out, or the agents are repeating themselves. */
export async function checkRunBudgets({ state, limits, startedAt, runId, events }: BudgetCheck): Promise<void> {
  const { maxIterations, maxTokens, maxWallClockMs } = limits;
  if (state.iteration.global >= maxIterations) {
    throw new RunEnded({ kind: "budget", reason: `The run stopped after ${maxIterations} steps, its limit. Ask again to continue.` });
  }
  const tokens = state.metrics.totals.inputTokens + state.metrics.totals.outputTokens;
  if (tokens >= maxTokens) {
    throw new RunEnded({ kind: "budget", reason: `The run stopped after using ${tokens} tokens (limit ${maxTokens}).` });
  }
  const elapsed = Date.now() - startedAt;
  if (elapsed >= maxWallClockMs) {
    throw new RunEnded({ kind: "budget", reason: `The run stopped after ${Math.round(elapsed / 1000)} s, its time limit.` });
  }
  const stuck = detectStuck((await events()).filter((e) => e.runId === runId), { headless: false });
  if (stuck) {
    throw new RunEnded({ kind: "stuck", reason: `The agents were repeating themselves (${stuck.loopType.replace(/_/g, " ")}, ${stuck.repeatTimes} times), so the run was stopped. Try rephrasing the request.` });
  }
}
