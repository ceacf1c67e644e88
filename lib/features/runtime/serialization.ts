/**
 * Events ⇄ JSON dicts in OpenHands' shape (the model's trimmed form is in
 * to-memory.ts, the `message` one-liner in event-message.ts).
 *
 * `fromDict` is the single gate for anything read from disk, the database or a
 * client: it migrates the keys OpenHands deprecated (legacy-event-fields.ts),
 * fills defaults and validates. `toDict` is its inverse and fixes key order,
 * so stored JSON is stable and diffable.
 */
import { truncateMiddle } from "@/lib/foundation/text/truncate-middle";
import type { z } from "zod";
import { ArgusError } from "@/lib/foundation/errors";
import { ACTION_ARGS } from "@/lib/foundation/protocol/action-args";
import { BASE_KEYS } from "@/lib/foundation/protocol/event-base";
import {
  ACTION_KINDS,
  ActionEventSchema,
  OBSERVATION_KINDS,
  ObservationEventSchema,
  isAction,
  isActionKind,
  isObservationKind,
  type ArgusEvent,
  type ObservationEvent,
} from "@/lib/foundation/protocol/events";
import { CmdMetadataSchema, OBSERVATION_EXTRAS } from "@/lib/foundation/protocol/observation-extras";
import { isDict, type Dict } from "./dict";
import { eventMessage } from "./event-message";
import { migrateActionArgs, migrateObservationExtras } from "./legacy-event-fields";

function badEvent(message: string, field?: string): ArgusError {
  return new ArgusError("bad_request:event", message, field === undefined ? undefined : { field });
}

// ---------------------------------------------------------------------------
// fromDict

/** Copies the shared top-level keys; null means "absent" and id -1 "unassigned". */
function pickBase(d: Dict): Dict {
  const base: Dict = {};
  for (const key of BASE_KEYS) {
    const value = d[key];
    if (value === undefined || value === null) continue;
    if (key === "id" && value === -1) continue;
    base[key] = value;
  }
  return base;
}

function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, i) => (typeof part === "number" ? `[${part}]` : `${i === 0 ? "" : "."}${String(part)}`))
    .join("");
}

/** Turns zod issues into one sentence that names the offending field. */
function describeIssues(label: string, issues: readonly z.core.$ZodIssue[]): ArgusError {
  const parts: string[] = [];
  let field: string | undefined;
  for (const issue of issues.slice(0, 3)) {
    const path = formatPath(issue.path);
    if (issue.code === "unrecognized_keys") {
      const where = path === "" ? "" : `${path}.`;
      field ??= `${where}${issue.keys[0] ?? ""}`;
      parts.push(`unknown key${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `${where}${k}`).join(", ")}`);
    } else {
      field ??= path;
      const missing = issue.code === "invalid_type" && issue.message.endsWith("received undefined");
      parts.push(missing ? `${path} is required` : `${path}: ${issue.message}`);
    }
  }
  return badEvent(`Invalid ${label}: ${parts.join("; ")}.`, field);
}

function actionFromDict(d: Dict): ArgusEvent {
  const kind = d.action;
  if (!isActionKind(kind)) {
    throw badEvent(`Unknown action kind ${JSON.stringify(kind)}; expected one of ${ACTION_KINDS.join(", ")}.`, "action");
  }
  const rawArgs = d.args ?? {};
  if (!isDict(rawArgs)) throw badEvent(`Invalid ${kind} action: args must be an object.`, "args");
  const { args, timestamp } = migrateActionArgs(rawArgs);
  const candidate: Dict = { ...pickBase(d), action: kind, args };
  if (candidate.timestamp === undefined && timestamp !== undefined) candidate.timestamp = timestamp;
  if (d.timeout !== undefined && d.timeout !== null) candidate.timeout = d.timeout;
  const parsed = ActionEventSchema.safeParse(candidate);
  if (!parsed.success) throw describeIssues(`${kind} action`, parsed.error.issues);
  return parsed.data;
}

function observationFromDict(d: Dict): ArgusEvent {
  const kind = d.observation;
  if (!isObservationKind(kind)) {
    throw badEvent(
      `Unknown observation kind ${JSON.stringify(kind)}; expected one of ${OBSERVATION_KINDS.join(", ")}.`,
      "observation",
    );
  }
  const rawExtras = d.extras ?? {};
  if (!isDict(rawExtras)) throw badEvent(`Invalid ${kind} observation: extras must be an object.`, "extras");
  // `message` and `success` are derived on the way out, so they are not read back.
  const candidate: Dict = { ...pickBase(d), observation: kind, extras: migrateObservationExtras(rawExtras) };
  if (d.content !== undefined && d.content !== null) candidate.content = d.content;
  const parsed = ObservationEventSchema.safeParse(candidate);
  if (!parsed.success) throw describeIssues(`${kind} observation`, parsed.error.issues);
  return parsed.data;
}

/** Validates a stored or received dict and returns the typed event (defaults filled). */
export function fromDict(d: unknown): ArgusEvent {
  if (!isDict(d)) throw badEvent("An event must be a JSON object.");
  const hasAction = d.action !== undefined;
  const hasObservation = d.observation !== undefined;
  if (hasAction && hasObservation) {
    throw badEvent('An event has either an "action" or an "observation", not both.', "observation");
  }
  if (hasAction) return actionFromDict(d);
  if (hasObservation) return observationFromDict(d);
  throw badEvent('An event needs an "action" or an "observation" key.', "action");
}

// ---------------------------------------------------------------------------
// toDict

/** Known keys in schema order first, then anything else in its original order. */
function ordered(value: Dict, order: readonly string[]): Dict {
  const out: Dict = {};
  for (const key of order) if (key in value) out[key] = value[key];
  for (const [key, v] of Object.entries(value)) if (!(key in out)) out[key] = v;
  return out;
}

const RUN_METADATA_ORDER = Object.keys(CmdMetadataSchema.shape);

function orderedExtras(e: ObservationEvent): Dict {
  const extras: Dict = structuredClone(e.extras);
  if (e.observation === "run" && isDict(extras.metadata)) {
    extras.metadata = ordered(extras.metadata, RUN_METADATA_ORDER);
  }
  return ordered(extras, Object.keys(OBSERVATION_EXTRAS[e.observation].shape));
}

/** OpenHands defines `success` only where it has a meaning. */
export function observationSuccess(e: ObservationEvent): boolean | undefined {
  if (e.observation === "run") return e.extras.metadata.exit_code === 0;
  if (e.observation === "run_ipython") return true;
  return undefined;
}

/**
 * Key order: id, timestamp, source, message, cause, action|observation,
 * tool_call_metadata, llm_metrics, runId, agent, then args (+ timeout) or
 * content, extras, success. Absent keys and id -1 are left out.
 */
export function toDict(e: ArgusEvent): Dict {
  const d: Dict = {};
  const put = (key: string, value: unknown) => {
    if (value !== undefined && value !== null) d[key] = structuredClone(value);
  };
  if (e.id !== -1) put("id", e.id);
  put("timestamp", e.timestamp);
  put("source", e.source);
  d.message = eventMessage(e);
  put("cause", e.cause);
  if (isAction(e)) put("action", e.action);
  else put("observation", e.observation);
  put("tool_call_metadata", e.tool_call_metadata);
  put("llm_metrics", e.llm_metrics);
  put("model_replies", e.model_replies);
  put("runId", e.runId);
  put("agent", e.agent);
  if (isAction(e)) {
    d.args = ordered(structuredClone(e.args), Object.keys(ACTION_ARGS[e.action].shape));
    put("timeout", e.timeout);
  } else {
    d.content = e.content;
    d.extras = orderedExtras(e);
    put("success", observationSuccess(e));
  }
  return d;
}
