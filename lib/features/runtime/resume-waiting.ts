/**
 * A run picked up from the log while it waited for the person's answer (its owner died with the
 * question on screen). The new owner first rebuilds the notebook, which can take as long as its
 * cells do, and only then does the controller wait for the answer again; an answer sent in
 * between must be taken, not refused as "no longer waiting". So the run waits from the moment
 * it is picked up, and an answer that comes early is kept until the controller asks for it.
 */
import type { ArgusEvent } from "@/lib/foundation/protocol/events";
import type { InteractionKind } from "@/lib/foundation/protocol/interaction-choice";
import type { RebuiltRun } from "./run-services";

/** The part of an ActiveRun (active-run.ts, which uses this file) that waits for answers. */
interface WaitingRun {
  waiting: { seq: number; kind: InteractionKind; resolve: (answer: ArgusEvent) => void; reject: (e: Error) => void } | null;
  earlyAnswer?: ArgusEvent;
}

/** The question (its seq and kind of card) the rebuilt run still waits on, when the step in flight was one. */
export function questionWaiting(run: RebuiltRun): { seq: number; kind: InteractionKind } | null {
  const action = run.unfinished?.action;
  return action && "action" in action && action.action === "interaction" && action.id !== undefined ? { seq: action.id, kind: action.args.kind } : null;
}

/** Makes `run` take an answer to question `seq` now, keeping it for the controller (takeEarlyAnswer). */
export function waitFromTheStart(run: WaitingRun, { seq, kind }: { seq: number; kind: InteractionKind }): void {
  run.waiting = {
    seq,
    kind,
    resolve: (answer) => {
      run.earlyAnswer = answer;
    },
    // A stop or a takeover meanwhile: the controller meets the aborted signal itself.
    reject: () => undefined,
  };
}

/** The answer to `seq` taken before the controller waited for it, once. */
export function takeEarlyAnswer(run: WaitingRun, seq: number): ArgusEvent | null {
  const answer = run.earlyAnswer;
  if (!answer || answer.cause !== seq) return null;
  delete run.earlyAnswer;
  return answer;
}
