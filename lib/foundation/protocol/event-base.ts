/**
 * The vocabulary every event shares (DESIGN §3): who produced it, which agent,
 * run states, and the keys any event may carry besides its kind and payload,
 * in OpenHands' dict shape.
 */
import { z } from "zod";
import { AGENT_KINDS, NON_AGENT_PRODUCERS } from "./agent-cards";
import { ModelRepliesSchema } from "./model-replies";

const EVENT_SOURCES = ["user", "agent", "environment"] as const;
const EventSourceSchema = z.enum(EVENT_SOURCES);

/** Which Argus agent produced an event ("user" and "system" for the rest); the agents are agent-cards.ts's. */
const AGENT_NAMES = [...AGENT_KINDS, ...NON_AGENT_PRODUCERS];
export const AgentNameSchema = z.enum(AGENT_NAMES);
export type AgentName = z.infer<typeof AgentNameSchema>;

/** Run states. Lives here (not in state.ts) because `agent_state_changed` carries one. */
const AGENT_STATES = [
  "loading",
  "running",
  "awaiting_user_input",
  "paused",
  "stopped",
  "finished",
  "rejected",
  "error",
  "interrupted",
] as const;
export const AgentStateSchema = z.enum(AGENT_STATES);
export type AgentState = z.infer<typeof AgentStateSchema>;

/** -1 unknown, 0 low, 1 medium, 2 high — serialized as an int like OpenHands does. */
export const SecurityRiskSchema = z.number().int().min(-1).max(2);

const ToolCallMetadataSchema = z.looseObject({
  function_name: z.string(),
  tool_call_id: z.string(),
  model_response: z.json().optional(),
  total_calls_in_response: z.number().int().nonnegative().optional(),
});

/** Token usage as OpenHands reports it; unknown keys survive a round trip. */
const TokenUsageSchema = z.looseObject({
  model: z.string().optional(),
  prompt_tokens: z.number().nonnegative(),
  completion_tokens: z.number().nonnegative(),
  cache_read_tokens: z.number().nonnegative().optional(),
  cache_write_tokens: z.number().nonnegative().optional(),
  context_window: z.number().nonnegative().optional(),
  per_turn_token: z.number().nonnegative().optional(),
  response_id: z.string().optional(),
});

const LlmMetricsSchema = z.looseObject({
  accumulated_cost: z.number().nonnegative().optional(),
  max_budget_per_task: z.number().nonnegative().nullable().optional(),
  accumulated_token_usage: TokenUsageSchema.optional(),
});
export type LlmMetrics = z.infer<typeof LlmMetricsSchema>;

export const baseShape = {
  id: z.number().int().nonnegative().optional(),
  timestamp: z.string().optional(),
  source: EventSourceSchema.optional(),
  cause: z.number().int().optional(),
  runId: z.string().optional(),
  agent: AgentNameSchema.optional(),
  tool_call_metadata: ToolCallMetadataSchema.optional(),
  llm_metrics: LlmMetricsSchema.optional(),
  /** On an agent's action: the model replies its step used (model-replies.ts), for rebuilding its memory elsewhere. */
  model_replies: ModelRepliesSchema.optional(),
};

/** The keys every event may carry besides its kind and payload. */
export const BASE_KEYS = Object.keys(baseShape) as (keyof typeof baseShape)[];

/** A JSON object payload (delegate inputs, finish outputs). */
export const jsonObject = z.record(z.string(), z.json());
/** A JSON object, as delegate inputs and outputs are stored. */
export type JsonObject = z.infer<typeof jsonObject>;
