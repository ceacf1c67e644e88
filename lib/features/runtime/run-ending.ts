import { DISK_FULL_RUN_ENDED, isDiskFull } from "@/lib/engines/db/disk-space";
import { errorNote, stateChanged, STOPPED_BY_PERSON_REASON } from "@/lib/foundation/protocol/event-builders";
import type { AgentState, ArgusEventInput } from "@/lib/foundation/protocol/events";

/**
 * Every way a run can end, and the one place its ending is turned into events.
 * The controller, the run manager (a server stop, a full disk) and the run router
 * (a dead owner, an unreachable database) each name the case; the words the chat
 * shows and the final state they put the run in live here only.
 *
 * One way of stopping writes no ending at all: a run whose owner stalled past its lease is
 * abandoned by that owner without another event (RunManager.abandon), because the instance that
 * took it over already wrote its `owner_lost` ending; likewise a run the server's shutdown cut
 * off, whose `server_stopped` ending the run manager wrote first.
 */
export type RunEnding =
  /** The root agent finished. */
  | { kind: "finished" }
  /** The person pressed stop (or the run's signal was aborted for them). */
  | { kind: "stopped_by_person" }
  /** A step, token or wall-clock limit ran out; `reason` says which, with the figures. */
  | { kind: "budget"; reason: string }
  /** The agents were repeating themselves (stuck detection). */
  | { kind: "stuck"; reason: string }
  /** The disk filled up under the run. */
  | { kind: "disk_full" }
  /** Anything else went wrong: the error's message and its kind (an error code, or "ERROR"). */
  | { kind: "failed"; message: string; errorId: string }
  /** This server stopped (or restarted) while the run was going. */
  | { kind: "server_stopped"; why?: string }
  /** The instance that ran it stopped renewing its lease; another instance took it over. `why`: why it could not go on there. */
  | { kind: "owner_lost"; why?: string }
  /** Its own writes could not reach the database, so it ended without a recorded end. */
  | { kind: "database_lost" };

/** What the chat says when a run was cut off by this server stopping. */
export const SERVER_STOPPED_NOTE =
  "This run was interrupted because the Argus server stopped. Nothing before this point was lost; send your message again to continue.";

/** What the chat says when another instance takes over a run whose owner died. */
export const OWNER_LOST_NOTE =
  "This run was interrupted because the Argus instance running it stopped responding. Everything before this point is saved; send your message again to continue.";

/** What the chat says when a run stopped because its own writes could not reach the database. */
export const DATABASE_LOST_NOTE =
  "This run stopped because the database could not be reached, so its last steps were not saved. Everything before this point is saved; send your message again to continue.";

/**
 * A cut-off note with, when a resume was tried and could not be made, why (in the log's words,
 * e.g. "step 12 was logged without the model's replies (an older log)"): the person sees it rather
 * than only the operator's log.
 */
function withWhy(note: string, why: string | undefined, who: string): string {
  if (!why) return note;
  const [first, ...rest] = note.split(". ");
  return `${first}, and ${who} (${why.replace(/\.$/, "")}). ${rest.join(". ")}`;
}

function interrupted(content: string): EndingWords {
  return { note: { content, errorId: "INTERRUPTED" }, state: "interrupted", reason: content };
}

/** The error note (if the chat shows one), the final state and its reason. */
interface EndingWords {
  note: { content: string; errorId: string } | null;
  state: Extract<AgentState, "finished" | "stopped" | "error" | "interrupted">;
  reason: string;
}

function wordsOf(ending: RunEnding): EndingWords {
  switch (ending.kind) {
    case "finished":
      return { note: null, state: "finished", reason: "" };
    case "stopped_by_person":
      return { note: null, state: "stopped", reason: STOPPED_BY_PERSON_REASON };
    case "budget":
      return { note: { content: ending.reason, errorId: "BUDGET" }, state: "stopped", reason: ending.reason };
    case "stuck":
      return { note: { content: ending.reason, errorId: "RUN_STOPPED" }, state: "error", reason: ending.reason };
    case "disk_full":
      return { note: { content: DISK_FULL_RUN_ENDED, errorId: "DISK_FULL" }, state: "error", reason: DISK_FULL_RUN_ENDED };
    case "failed":
      return { note: { content: ending.message, errorId: ending.errorId }, state: "error", reason: ending.message };
    case "server_stopped":
      return interrupted(withWhy(SERVER_STOPPED_NOTE, ending.why, "the restarted server could not continue it"));
    case "owner_lost":
      return interrupted(withWhy(OWNER_LOST_NOTE, ending.why, "another instance could not continue it"));
    case "database_lost":
      return { note: { content: DATABASE_LOST_NOTE, errorId: "DATABASE_UNAVAILABLE" }, state: "interrupted", reason: DATABASE_LOST_NOTE };
  }
}

/** The events that record an ending, in order: the readable note (when there is one), then the final state. */
export function runEndingEvents(ending: RunEnding): ArgusEventInput[] {
  const { note, state, reason } = wordsOf(ending);
  return [...(note ? [errorNote(note.content, note.errorId)] : []), stateChanged(state, reason)];
}

/** The reason the final state carries (shown as the run's notice). */
export function runEndingReason(ending: RunEnding): string {
  return wordsOf(ending).reason;
}

/**
 * How a run whose loop threw ends: the ending it was stopped with, a stop by the
 * person (its signal aborted, or a cancelled model call or cell), a full disk, or a
 * failure with the error's message and kind.
 */
export function endingOfError(error: unknown, aborted: boolean): RunEnding {
  if (error instanceof RunEnded) return error.ending;
  const kind = (error as { kind?: unknown } | null)?.kind;
  if (aborted || kind === "cancelled") return { kind: "stopped_by_person" };
  if (isDiskFull(error)) return { kind: "disk_full" };
  return { kind: "failed", message: error instanceof Error ? error.message : String(error), errorId: typeof kind === "string" ? kind : "ERROR" };
}

/** Thrown inside a run's loop to end it the named way (a stop, a budget, stuck agents). */
export class RunEnded extends Error {
  constructor(readonly ending: RunEnding) {
    super(runEndingReason(ending));
  }
}

/**
 * The one place a run's ending is appended to its session's log, each event under
 * the run's id. `append` is the caller's door to the log (the controller's refuses
 * once the server is closing, so an ending half written stops there).
 */
export async function writeRunEnding(append: (event: ArgusEventInput) => Promise<unknown>, runId: string, ending: RunEnding): Promise<void> {
  for (const event of runEndingEvents(ending)) await append({ ...event, runId });
}
