/**
 * RunState as a fold over the event log. Pure: the controller applies each
 * event as it is appended, and a restarted server rebuilds the same state
 * from the stored events.
 *
 * Token usage: the `llm_metrics.accumulated_token_usage` on an event is taken
 * as the usage of the one model call that produced that event, not a running
 * total (OpenHands stores a running total under that name; Argus producers
 * must attach per-call figures). `accumulated_cost` is read the same way.
 */
import { ROOT_AGENT, TURNS_AGENT } from "@/lib/foundation/protocol/agent-cards";
import type { AgentName, LlmMetrics } from "@/lib/foundation/protocol/event-base";
import { isAction, type ArgusEvent } from "@/lib/foundation/protocol/events";
import {
  TERMINAL_AGENT_STATES,
  type AgentMetrics,
  type AgentState,
  type RunLimits,
  type RunState,
  type TokenTotals,
} from "@/lib/foundation/protocol/state";

export function initialRunState(runId: string, limits: RunLimits, startedAt: string | null = null): RunState {
  return {
    runId,
    agentState: "loading",
    agent: ROOT_AGENT,
    delegateLevel: 0,
    delegateStack: [],
    iteration: { global: 0, localByAgent: {} },
    turn: 0,
    maxTurns: limits.maxTurns,
    limits: { ...limits },
    metrics: { byAgent: {}, totals: { inputTokens: 0, outputTokens: 0, costUsd: null } },
    lastError: null,
    startedAt,
    updatedAt: startedAt,
    finishedAt: null,
  };
}

function isTerminal(state: AgentState): boolean {
  return (TERMINAL_AGENT_STATES as readonly AgentState[]).includes(state);
}

/** Actions that hand control around rather than do a step of work. */
const NOT_A_STEP = new Set(["delegate", "finish", "reject", "null"]);

function countStep(state: RunState, agent: AgentName): RunState {
  const local = (state.iteration.localByAgent[agent] ?? 0) + 1;
  const localByAgent = { ...state.iteration.localByAgent, [agent]: local };
  return {
    ...state,
    iteration: { global: state.iteration.global + 1, localByAgent },
    // The run's turns are one agent's steps (agent-cards.ts: the planner's).
    turn: localByAgent[TURNS_AGENT] ?? 0,
  };
}

function addUsage<T extends TokenTotals>(totals: T, input: number, output: number, cost: number | undefined): T {
  return {
    ...totals,
    inputTokens: totals.inputTokens + input,
    outputTokens: totals.outputTokens + output,
    costUsd: cost === undefined ? totals.costUsd : (totals.costUsd ?? 0) + cost,
  };
}

const EMPTY_AGENT_METRICS: AgentMetrics = { inputTokens: 0, outputTokens: 0, costUsd: null, calls: 0 };

function addMetrics(state: RunState, agent: AgentName, metrics: LlmMetrics): RunState {
  const usage = metrics.accumulated_token_usage;
  const cost = metrics.accumulated_cost;
  if (usage === undefined && cost === undefined) return state;
  const input = usage?.prompt_tokens ?? 0;
  const output = usage?.completion_tokens ?? 0;
  const previous = state.metrics.byAgent[agent] ?? EMPTY_AGENT_METRICS;
  const mine = addUsage({ ...previous, calls: previous.calls + 1 }, input, output, cost);
  return {
    ...state,
    metrics: {
      byAgent: { ...state.metrics.byAgent, [agent]: mine },
      totals: addUsage(state.metrics.totals, input, output, cost),
    },
  };
}

function applyKind(state: RunState, e: ArgusEvent, actor: AgentName): RunState {
  if (isAction(e)) {
    if (e.action === "delegate") {
      return {
        ...state,
        agent: e.args.agent,
        delegateLevel: state.delegateLevel + 1,
        delegateStack: [...state.delegateStack, state.agent],
      };
    }
    if (e.source === "agent" && !NOT_A_STEP.has(e.action)) return countStep(state, actor);
    return state;
  }
  if (e.observation === "delegate") {
    // The delegate returned: control goes back to whoever delegated.
    const parent = state.delegateStack.at(-1);
    return {
      ...state,
      agent: parent ?? state.agent,
      delegateLevel: Math.max(0, state.delegateLevel - 1),
      delegateStack: state.delegateStack.slice(0, -1),
    };
  }
  if (e.observation === "agent_state_changed") {
    const next = e.extras.agent_state;
    return {
      ...state,
      agentState: next,
      // The last error stays visible after a resume; it is history, not status.
      lastError: next === "error" ? e.extras.reason || "The run failed." : state.lastError,
      finishedAt: isTerminal(next) ? (e.timestamp ?? state.updatedAt) : null,
    };
  }
  return state;
}

/**
 * Applies one event. Only events stamped with this run's id count, so folding
 * a whole session log and applying events one by one agree.
 */
export function reduceRunState(state: RunState, e: ArgusEvent): RunState {
  if (e.runId !== state.runId) return state;
  // The producing agent if the event says so, else whoever is stepping now.
  const actor = e.agent ?? state.agent;
  let next = applyKind(state, e, actor);
  if (e.llm_metrics) next = addMetrics(next, actor, e.llm_metrics);
  if (e.timestamp !== undefined) {
    next = { ...next, updatedAt: e.timestamp, startedAt: next.startedAt ?? e.timestamp };
  }
  return next;
}

/** The state of `runId` from the session's log (events of other runs are skipped). */
export function rebuildRunState(runId: string, events: readonly ArgusEvent[], limits: RunLimits): RunState {
  return events.reduce(reduceRunState, initialRunState(runId, limits));
}
