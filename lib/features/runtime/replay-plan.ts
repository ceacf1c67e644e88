/**
 * What rebuilding a run's agents from the log takes (OpenHands' state-from-events): the events
 * its root agent was made from, the person's request it answers, and each step its agents took
 * since, with the model replies the step used and what answered it. Pure; run-rebuild.ts steps
 * the agents through it. A run whose log cannot say this (steps logged before replies were
 * recorded, an action left unanswered mid-run) gets the reason instead.
 */
import { isAction, type ArgusEvent } from "@/lib/foundation/protocol/events";
import type { ModelReply } from "@/lib/foundation/protocol/model-replies";
import { eventsAgentsSee, personMessages, uploadIdsOf } from "./redo-log";

export interface ReplayStep {
  /** The agent's action as logged. */
  action: ArgusEvent & { action: string; agent: string };
  replies: readonly ModelReply[];
  /** What answered it: its observation, the person's answer, or a finished delegate's result; null when none came. */
  answer: ArgusEvent | null;
}

export interface ReplayPlan {
  /** The event the run's current attempt opened at: its agents were made right after it. */
  openingSeq: number;
  /** The events the agents saw when they were made. */
  before: ArgusEvent[];
  /** The person's request the run answers: its words and upload ids. */
  text: string;
  media: string[];
  steps: ReplayStep[];
}

/** Actions that are answered by an event caused by them; the others (a message, a delegation) are not. */
const ANSWERED = new Set(["run_ipython", "browse", "browse_interactive", "interaction", "finish", "reject"]);

/** Steps that may ask the person from inside while they run (a cell's tool review, the browser's safety check). */
const ASKING_INSIDE = new Set(["run_ipython", "browse", "browse_interactive"]);

/**
 * A question logged while a cell or a browsing step was still running (askInRun): an agent
 * action with no model reply behind it, no step of its own. The step's answer comes after it.
 */
function askedInsideStep(e: ArgusEvent & { action: string }, last: ReplayStep | undefined): boolean {
  if (e.action !== "interaction" || e.model_replies !== undefined || !last || !ASKING_INSIDE.has(last.action.action)) return false;
  return last.answer === null || last.answer.id! > e.id!;
}

function redoKind(e: ArgusEvent): string | null {
  return "observation" in e && e.observation === "null" ? (e.extras.redo?.kind ?? null) : null;
}

/**
 * Whether `e` answers the action `seq` (an observation of it, or the person's answer to its
 * question). A cell's output marked stopped does not: the run stopped in it, and a Continue runs it again.
 */
function answers(e: ArgusEvent, seq: number): boolean {
  if (e.cause !== seq || isStopped(e)) return false;
  return "observation" in e ? e.observation !== "agent_state_changed" && e.observation !== "null" : e.action === "message" && e.source === "user";
}

export function replayPlan(events: readonly ArgusEvent[], runId: string): ReplayPlan | { why: string } {
  const seen = eventsAgentsSee(events);
  // A run's agents are made after its request (or a Regenerate's or Edit's mark, or a continue started afresh).
  const openings = [
    ...seen.filter((e) => e.runId === runId && isAction(e) && e.action === "message" && e.source === "user" && e.cause === undefined),
    ...events.filter((e) => e.runId === runId && (redoKind(e) === "regenerate" || redoKind(e) === "edit")),
  ].flatMap((e) => (e.id === undefined ? [] : [e.id]));
  if (openings.length === 0) return { why: "the run's request is not in the chat" };
  const openingSeq = Math.max(...openings);
  const before = seen.filter((e) => e.id !== undefined && e.id <= openingSeq);
  const request = personMessages(before).at(-1);
  if (!request) return { why: "the run's request is not in the chat" };
  const after = seen.filter((e) => e.id !== undefined && e.id > openingSeq);
  const steps: ReplayStep[] = [];
  for (const e of after) {
    if (e.runId !== runId || !isAction(e) || e.source !== "agent" || e.agent === undefined) continue;
    if (askedInsideStep(e, steps.at(-1))) continue;
    if (e.model_replies === undefined) return { why: `step ${e.id} was logged without the model's replies (an older log)` };
    const answer = ANSWERED.has(e.action) ? (after.find((o) => answers(o, e.id!)) ?? null) : null;
    steps.push({ action: { ...e, agent: e.agent }, replies: e.model_replies, answer });
  }
  // Only the last step can still be waiting for its answer: it was in flight when the run stopped.
  const unanswered = steps.findIndex((s) => s.answer === null && ANSWERED.has(s.action.action));
  if (unanswered !== -1 && unanswered !== steps.length - 1) return { why: `step ${steps[unanswered]!.action.id} was never answered` };
  return { openingSeq, before, text: request.args.content, media: uploadIdsOf(request), steps };
}

/** A cell's output written as the run was stopped in it (controller.ts runCell). */
export function isStopped(e: ArgusEvent): boolean {
  return "observation" in e && e.observation === "run_ipython" && e.extras.stopped === true;
}
