/**
 * What a redo (lib/foundation/protocol/redo.ts) reads from a session's log: the events agents still see
 * (superseded turns and redo marks left out), the person's message a turn answers, whether a run
 * can be continued, and the notebook cells to run again when its kernel was lost. Pure.
 */
import { agentCard } from "@/lib/foundation/protocol/agent-cards";
import { isAction, type ActionOf, type ArgusEvent } from "@/lib/foundation/protocol/events";
import { supersededBy, supersededRanges, type RedoMark } from "@/lib/foundation/protocol/redo";
import { TERMINAL_AGENT_STATES } from "@/lib/foundation/protocol/state";

function markOf(e: ArgusEvent): RedoMark | null {
  return "observation" in e && e.observation === "null" ? (e.extras.redo ?? null) : null;
}

/** The events agents build their memory from: not superseded by a Regenerate or Edit, and no redo marks. */
export function eventsAgentsSee(events: readonly ArgusEvent[]): ArgusEvent[] {
  const marks = events.flatMap((e) => {
    const mark = markOf(e);
    return mark && e.id !== undefined ? [{ seq: e.id, mark }] : [];
  });
  const ranges = supersededRanges(marks);
  return events.filter((e) => markOf(e) === null && (e.id === undefined || supersededBy(e.id, ranges) === null));
}

/** A message the person wrote (not an answer to a question). */
export type PersonMessage = ActionOf<"message">;

function isPersonMessage(e: ArgusEvent): e is PersonMessage {
  return isAction(e) && e.action === "message" && e.source === "user" && e.cause === undefined;
}

/** The person's messages agents still see, oldest first. */
export function personMessages(events: readonly ArgusEvent[]): PersonMessage[] {
  return eventsAgentsSee(events).filter(isPersonMessage);
}

/** The person's message that started `runId` (the newest one before its first event), or null. */
export function requestOfRun(events: readonly ArgusEvent[], runId: string): PersonMessage | null {
  const ofRun = events.filter((e): e is PersonMessage => e.runId === runId && isPersonMessage(e));
  return ofRun.at(-1) ?? null;
}

/** Run states a Retry or Continue may pick up from (a finished run has nothing left to do). */
const CONTINUABLE = new Set(["error", "stopped", "interrupted"]);

/**
 * Why `runId` cannot be continued, or null when it can: it must be the session's newest run,
 * and have ended in a failure, a stop or an interruption.
 */
export function whyNotContinuable(events: readonly ArgusEvent[], runId: string): string | null {
  const newest = [...events].reverse().find((e) => e.runId !== undefined)?.runId;
  if (newest !== runId) return "Only the chat's latest run can be continued.";
  const last = [...events].reverse().find((e) => e.runId === runId && "observation" in e && e.observation === "agent_state_changed");
  const state = last && "observation" in last && last.observation === "agent_state_changed" ? last.extras.agent_state : null;
  if (state === null || !(TERMINAL_AGENT_STATES as readonly string[]).includes(state)) return "That run is still going.";
  if (!CONTINUABLE.has(state)) return "That run already finished; use Regenerate to answer the message again.";
  return null;
}

/** Why the person's message `seq` cannot be answered again (Regenerate), or null: it must be their latest. */
export function whyNotRegenerable(events: readonly ArgusEvent[], seq: number): string | null {
  const latest = personMessages(events).at(-1);
  return latest?.id === seq ? null : "Only your latest message can be answered again.";
}

/** Why the person's message `seq` cannot be edited, or null: it must be one of theirs the chat still shows as current. */
export function whyNotEditable(events: readonly ArgusEvent[], seq: number): string | null {
  return personMessages(events).some((m) => m.id === seq) ? null : "That message cannot be edited (it is not one of yours, or an earlier version).";
}

/**
 * The session notebook's cells to run again in a new kernel, in order: the cells agents still
 * see that ran in the shared notebook (not a coder's isolated test) and whose latest run did not
 * fail, since a failed cell changed little and one that killed its kernel would kill the new one
 * too. A cell the run was stopped in is left out: a Continue runs it again as its next step.
 */
export function notebookCellsToReplay(events: readonly ArgusEvent[]): string[] {
  const seen = eventsAgentsSee(events);
  const latest = new Map<number, ArgusEvent>();
  for (const e of seen) {
    if ("observation" in e && e.cause !== undefined && e.observation !== "agent_state_changed" && e.observation !== "null") latest.set(e.cause, e);
  }
  const succeeded = (e: ArgusEvent | undefined) => e !== undefined && "observation" in e && e.observation !== "error" && !(e.observation === "run_ipython" && (e.extras.failed === true || e.extras.stopped === true));
  return seen
    .filter((e): e is ActionOf<"run_ipython"> => isAction(e) && e.action === "run_ipython")
    .filter((e) => agentCard(e.agent)?.cells !== "isolated" && e.id !== undefined && succeeded(latest.get(e.id)))
    .map((e) => e.args.code);
}

/** The upload ids of a person's message (its `/api/files/<id>` URLs). */
export function uploadIdsOf(message: PersonMessage): string[] {
  return (message.args.image_urls ?? []).flatMap((url) => {
    const id = /^\/api\/files\/([\w-]+)$/.exec(url)?.[1];
    return id ? [id] : [];
  });
}
