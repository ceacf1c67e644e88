/**
 * RunState: everything the controller and the UI need to know about one run,
 * as plain JSON. It is derived from the event log (`rebuildRunState`), so it
 * can be cached or thrown away freely.
 */
import { z } from "zod";
import { AgentNameSchema, AgentStateSchema } from "./event-base";

export type { AgentState } from "./event-base";

/** States after which the run does not continue by itself. */
export const TERMINAL_AGENT_STATES = ["stopped", "finished", "rejected", "error", "interrupted"] as const;

const RunLimitsSchema = z.object({
  /** Planner turns ("turn k of N" in the UI). */
  maxTurns: z.number().int().positive(),
  /** Input + output tokens over every agent of the run. */
  maxTokens: z.number().int().positive(),
  maxWallClockMs: z.number().int().positive(),
  /** Agent steps over every agent of the run (OpenHands' global iteration). */
  maxIterations: z.number().int().positive(),
});
export type RunLimits = z.infer<typeof RunLimitsSchema>;

const count = z.number().int().nonnegative();

const TokenTotalsSchema = z.object({
  inputTokens: count,
  outputTokens: count,
  /** null until some call reports a cost (local models often do not). */
  costUsd: z.number().nonnegative().nullable(),
});
export type TokenTotals = z.infer<typeof TokenTotalsSchema>;

const AgentMetricsSchema = TokenTotalsSchema.extend({
  /** Model calls that reported usage. */
  calls: count,
});
export type AgentMetrics = z.infer<typeof AgentMetricsSchema>;

export const RunStateSchema = z.object({
  runId: z.string(),
  agentState: AgentStateSchema,
  /** The agent currently stepping. */
  agent: AgentNameSchema,
  /** 0 for the root agent; each delegation adds one. */
  delegateLevel: count,
  /** Parents of `agent`, innermost last; a `delegate` observation pops one. */
  delegateStack: z.array(AgentNameSchema),
  iteration: z.object({
    /** Steps of every agent of the run; delegates share it. */
    global: count,
    localByAgent: z.partialRecord(AgentNameSchema, count),
  }),
  /** The planner's local iteration. */
  turn: count,
  maxTurns: z.number().int().positive(),
  limits: RunLimitsSchema,
  metrics: z.object({
    byAgent: z.partialRecord(AgentNameSchema, AgentMetricsSchema),
    totals: TokenTotalsSchema,
  }),
  lastError: z.string().nullable(),
  /** Timestamp of the run's first event; null before any event. */
  startedAt: z.string().nullable(),
  /** Timestamp of the latest event; null before any event. */
  updatedAt: z.string().nullable(),
  /** Set when the run enters a terminal state, cleared if it leaves one. */
  finishedAt: z.string().nullable(),
});
export type RunState = z.infer<typeof RunStateSchema>;
