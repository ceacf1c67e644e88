/**
 * The Event: one entry of a session's append-only log (DESIGN §3).
 *
 * The shape is OpenHands' event dict so that the kinds both systems share
 * round-trip through `toDict` / `fromDict` unchanged: actions carry `args`,
 * observations carry `content` + `extras`. Argus adds two top-level keys,
 * `runId` and `agent`, and one action kind of its own, `interaction`.
 *
 * Field order inside every args/extras schema is the order OpenHands emits;
 * serialization reads it from the schema's shape, so reordering a field here
 * changes the wire format.
 */
import { z } from "zod";

export const EVENT_SOURCES = ["user", "agent", "environment"] as const;
export const EventSourceSchema = z.enum(EVENT_SOURCES);
export type EventSource = z.infer<typeof EventSourceSchema>;

/** Which Argus agent produced an event ("user" and "system" for the rest). */
export const AGENT_NAMES = ["conversation", "planner", "coder", "user", "system"] as const;
export const AgentNameSchema = z.enum(AGENT_NAMES);
export type AgentName = z.infer<typeof AgentNameSchema>;

/** Run states. Lives here (not in state.ts) because `agent_state_changed` carries one. */
export const AGENT_STATES = [
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

// ---------------------------------------------------------------------------
// Base keys

export const ToolCallMetadataSchema = z.looseObject({
  function_name: z.string(),
  tool_call_id: z.string(),
  model_response: z.json().optional(),
  total_calls_in_response: z.number().int().nonnegative().optional(),
});
export type ToolCallMetadata = z.infer<typeof ToolCallMetadataSchema>;

/** Token usage as OpenHands reports it; unknown keys survive a round trip. */
export const TokenUsageSchema = z.looseObject({
  model: z.string().optional(),
  prompt_tokens: z.number().nonnegative(),
  completion_tokens: z.number().nonnegative(),
  cache_read_tokens: z.number().nonnegative().optional(),
  cache_write_tokens: z.number().nonnegative().optional(),
  context_window: z.number().nonnegative().optional(),
  per_turn_token: z.number().nonnegative().optional(),
  response_id: z.string().optional(),
});
export type TokenUsage = z.infer<typeof TokenUsageSchema>;

export const LlmMetricsSchema = z.looseObject({
  accumulated_cost: z.number().nonnegative().optional(),
  max_budget_per_task: z.number().nonnegative().nullable().optional(),
  accumulated_token_usage: TokenUsageSchema.optional(),
});
export type LlmMetrics = z.infer<typeof LlmMetricsSchema>;

const baseShape = {
  id: z.number().int().nonnegative().optional(),
  timestamp: z.string().optional(),
  source: EventSourceSchema.optional(),
  cause: z.number().int().optional(),
  runId: z.string().optional(),
  agent: AgentNameSchema.optional(),
  tool_call_metadata: ToolCallMetadataSchema.optional(),
  llm_metrics: LlmMetricsSchema.optional(),
};

/** The keys every event may carry besides its kind and payload. */
export const BASE_KEYS = Object.keys(baseShape) as (keyof typeof baseShape)[];

// ---------------------------------------------------------------------------
// Action args

const thought = z.string().default("");
const securityRisk = SecurityRiskSchema.default(-1);
const confirmationState = z
  .enum(["confirmed", "rejected", "awaiting_confirmation"])
  .default("confirmed");
const jsonObject = z.record(z.string(), z.json());
/** A JSON object, as delegate inputs and outputs are stored. */
export type JsonObject = z.infer<typeof jsonObject>;

export const TaskItemSchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  status: z.enum(["todo", "in_progress", "done"]),
  notes: z.string().default(""),
});
export type TaskItem = z.infer<typeof TaskItemSchema>;

export const ACTION_ARGS = {
  null: z.strictObject({}),
  message: z.strictObject({
    content: z.string(),
    file_urls: z.array(z.string()).nullable().default(null),
    image_urls: z.array(z.string()).nullable().default(null),
    wait_for_response: z.boolean().default(false),
    security_risk: securityRisk,
  }),
  run: z.strictObject({
    command: z.string(),
    is_input: z.boolean().default(false),
    thought,
    blocking: z.boolean().default(false),
    is_static: z.boolean().default(false),
    cwd: z.string().nullable().default(null),
    hidden: z.boolean().default(false),
    confirmation_state: confirmationState,
    security_risk: securityRisk,
  }),
  run_ipython: z.strictObject({
    code: z.string(),
    thought,
    include_extra: z.boolean().default(true),
    confirmation_state: confirmationState,
    security_risk: securityRisk,
    kernel_init_code: z.string().default(""),
  }),
  read: z.strictObject({
    path: z.string(),
    start: z.number().int().default(0),
    end: z.number().int().default(-1),
    thought,
    security_risk: securityRisk,
    impl_source: z.enum(["default", "oh_aci"]).default("default"),
    view_range: z.array(z.number().int()).nullable().default(null),
  }),
  write: z.strictObject({
    path: z.string(),
    content: z.string(),
    start: z.number().int().default(0),
    end: z.number().int().default(-1),
    thought,
    security_risk: securityRisk,
  }),
  browse: z.strictObject({
    url: z.string(),
    thought,
    security_risk: securityRisk,
    return_axtree: z.boolean().default(false),
  }),
  browse_interactive: z.strictObject({
    browser_actions: z.string(),
    thought,
    browsergym_send_msg_to_user: z.string().default(""),
    security_risk: securityRisk,
    return_axtree: z.boolean().default(false),
  }),
  delegate: z.strictObject({
    agent: AgentNameSchema,
    inputs: jsonObject.default({}),
    thought,
  }),
  finish: z.strictObject({
    final_thought: z.string().default(""),
    outputs: jsonObject.default({}),
    thought,
  }),
  reject: z.strictObject({
    outputs: jsonObject.default({}),
    thought,
  }),
  task_tracking: z.strictObject({
    command: z.enum(["view", "plan"]).default("view"),
    task_list: z.array(TaskItemSchema).default([]),
    thought,
  }),
  /** Argus's own: stop and ask the person (a question, or a tool review). */
  interaction: z.strictObject({
    kind: z.enum(["question", "tool_review"]),
    prompt: z.string(),
    options: z.array(z.string()).default([]),
    payload: z.json().default(null),
    thought,
  }),
};

// ---------------------------------------------------------------------------
// Observation extras

export const CmdMetadataSchema = z.strictObject({
  exit_code: z.number().int().default(-1),
  pid: z.number().int().default(-1),
  username: z.string().nullable().default(null),
  hostname: z.string().nullable().default(null),
  working_dir: z.string().nullable().default(null),
  py_interpreter_path: z.string().nullable().default(null),
  prefix: z.string().default(""),
  suffix: z.string().default(""),
});
export type CmdMetadata = z.infer<typeof CmdMetadataSchema>;

export const OBSERVATION_EXTRAS = {
  null: z.strictObject({}),
  run_ipython: z.strictObject({
    code: z.string(),
    image_urls: z.array(z.string()).nullable().default(null),
    /** Argus's own: the cell raised (absent in OpenHands' events and in Argus's before it). */
    failed: z.boolean().optional(),
  }),
  run: z.strictObject({
    command: z.string(),
    metadata: CmdMetadataSchema.prefault({}),
    hidden: z.boolean().default(false),
  }),
  read: z.strictObject({
    path: z.string(),
    impl_source: z.enum(["default", "oh_aci"]).default("default"),
  }),
  write: z.strictObject({ path: z.string() }),
  // Browser output is large and open-ended (DOM, accessibility tree): the
  // fields Argus reads are typed, anything else is kept as it came.
  browse: z.looseObject({
    url: z.string(),
    trigger_by_action: z.string(),
    screenshot: z.string().default(""),
    screenshot_path: z.string().nullable().default(null),
    set_of_marks: z.string().default(""),
    error: z.boolean().default(false),
    goal_image_urls: z.array(z.string()).default([]),
    open_pages_urls: z.array(z.string()).default([]),
    active_page_index: z.number().int().default(-1),
    last_browser_action: z.string().default(""),
    last_browser_action_error: z.string().default(""),
    focused_element_bid: z.string().default(""),
    filter_visible_only: z.boolean().default(false),
  }),
  error: z.strictObject({ error_id: z.string().default("") }),
  success: z.strictObject({}),
  delegate: z.strictObject({ outputs: jsonObject.default({}) }),
  user_rejected: z.strictObject({}),
  agent_state_changed: z.strictObject({
    agent_state: AgentStateSchema,
    reason: z.string().default(""),
  }),
};

// ---------------------------------------------------------------------------
// Events

function actionEvent<K extends string, A extends z.ZodType>(kind: K, args: A) {
  return z.object({
    ...baseShape,
    action: z.literal(kind),
    args,
    /** Hard timeout in seconds, as OpenHands stores it. */
    timeout: z.number().positive().optional(),
  });
}

function observationEvent<K extends string, X extends z.ZodType>(kind: K, extras: X) {
  return z.object({
    ...baseShape,
    observation: z.literal(kind),
    content: z.string().default(""),
    extras,
  });
}

const A = ACTION_ARGS;
export const ActionEventSchema = z.discriminatedUnion("action", [
  actionEvent("null", A.null),
  actionEvent("message", A.message),
  actionEvent("run", A.run),
  actionEvent("run_ipython", A.run_ipython),
  actionEvent("read", A.read),
  actionEvent("write", A.write),
  actionEvent("browse", A.browse),
  actionEvent("browse_interactive", A.browse_interactive),
  actionEvent("delegate", A.delegate),
  actionEvent("finish", A.finish),
  actionEvent("reject", A.reject),
  actionEvent("task_tracking", A.task_tracking),
  actionEvent("interaction", A.interaction),
]);

const O = OBSERVATION_EXTRAS;
export const ObservationEventSchema = z.discriminatedUnion("observation", [
  observationEvent("null", O.null),
  observationEvent("run_ipython", O.run_ipython),
  observationEvent("run", O.run),
  observationEvent("read", O.read),
  observationEvent("write", O.write),
  observationEvent("browse", O.browse),
  observationEvent("error", O.error),
  observationEvent("success", O.success),
  observationEvent("delegate", O.delegate),
  observationEvent("user_rejected", O.user_rejected),
  observationEvent("agent_state_changed", O.agent_state_changed),
]);

export const ArgusEventSchema = z.union([ActionEventSchema, ObservationEventSchema]);

export type ActionEvent = z.output<typeof ActionEventSchema>;
export type ObservationEvent = z.output<typeof ObservationEventSchema>;
export type ArgusEvent = ActionEvent | ObservationEvent;
/** What a producer may write before defaults are filled (e.g. for `fromDict`). */
export type ArgusEventInput = z.input<typeof ArgusEventSchema>;

export type ActionKind = ActionEvent["action"];
export type ObservationKind = ObservationEvent["observation"];
export type ActionOf<K extends ActionKind> = Extract<ActionEvent, { action: K }>;
export type ObservationOf<K extends ObservationKind> = Extract<ObservationEvent, { observation: K }>;
export type ActionArgs<K extends ActionKind> = ActionOf<K>["args"];
export type ObservationExtras<K extends ObservationKind> = ObservationOf<K>["extras"];

export const ACTION_KINDS = Object.keys(ACTION_ARGS) as ActionKind[];
export const OBSERVATION_KINDS = Object.keys(OBSERVATION_EXTRAS) as ObservationKind[];

export function isAction(e: ArgusEvent): e is ActionEvent {
  return "action" in e;
}

export function isObservation(e: ArgusEvent): e is ObservationEvent {
  return "observation" in e;
}

export function isActionKind(value: unknown): value is ActionKind {
  return typeof value === "string" && Object.hasOwn(ACTION_ARGS, value);
}

export function isObservationKind(value: unknown): value is ObservationKind {
  return typeof value === "string" && Object.hasOwn(OBSERVATION_EXTRAS, value);
}
