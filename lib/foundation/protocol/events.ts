/**
 * The Event: one entry of a session's append-only log (DESIGN §3).
 *
 * The shape is OpenHands' event dict so that the kinds both systems share
 * round-trip through `toDict` / `fromDict` unchanged: actions carry `args`,
 * observations carry `content` + `extras`. Argus adds two top-level keys,
 * `runId` and `agent`, and one action kind of its own, `interaction`.
 *
 * The shared keys are in event-base.ts, each kind's payload in action-args.ts
 * and observation-extras.ts.
 */
import { z } from "zod";
import { ACTION_ARGS } from "./action-args";
import { baseShape } from "./event-base";
import { OBSERVATION_EXTRAS } from "./observation-extras";

// The runtime's controller names agents with this type from here.
export type { AgentName, AgentState, JsonObject } from "./event-base";

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
