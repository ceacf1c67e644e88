/**
 * The `args` of each action kind, in OpenHands' shape plus Argus's own
 * `interaction`. Field order is the order OpenHands emits; serialization
 * reads it from the schema's shape, so reordering a field here changes the
 * wire format.
 */
import { z } from "zod";
import { AgentNameSchema, jsonObject, SecurityRiskSchema } from "./event-base";
import { InteractionChoiceSchema } from "./interaction-choice";

const thought = z.string().default("");
const securityRisk = SecurityRiskSchema.default(-1);
const confirmationState = z
  .enum(["confirmed", "rejected", "awaiting_confirmation"])
  .default("confirmed");

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
    /** Argus's own: a card's answer with fields (interaction-choice.ts); `content` is its text form. */
    choice: InteractionChoiceSchema.optional(),
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
  /** Argus's own: stop and ask the person (a question, a tool review, or a browser safety check). */
  interaction: z.strictObject({
    kind: z.enum(["question", "tool_review", "safety"]),
    prompt: z.string(),
    options: z.array(z.string()).default([]),
    payload: z.json().default(null),
    thought,
  }),
};
