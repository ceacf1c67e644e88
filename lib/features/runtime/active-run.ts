/** The run manager's vocabulary: what it is built from, and a run it is executing (run-manager.ts). */
import type { RunAgents } from "@/agents/types";
import type { Db } from "@/lib/engines/db/database";
import type { DiskSpace } from "@/lib/engines/db/disk-space";
import type { PersonAnswer, PersonQuestion } from "@/lib/engines/kernels/bridge";
import { question as questionEvent, stateChanged } from "@/lib/foundation/protocol/event-builders";
import type { AgentName, AgentState, ArgusEvent } from "@/lib/foundation/protocol/events";
import type { InteractionKind } from "@/lib/foundation/protocol/interaction-choice";
import type { RunLimits } from "@/lib/foundation/protocol/state";
import type { ControllerOptions, RunServices } from "./controller";
import type { EventLog } from "./event-log";
import { takeEarlyAnswer } from "./resume-waiting";

/** A run this process executes (one attempt of it: a continue makes a new one under the same run id). */
export interface ActiveRun {
  runId: string;
  abort: AbortController;
  /** Set while the run waits for the person's answer to interaction `seq` (a question, tool review or safety check). */
  waiting: { seq: number; kind: InteractionKind; resolve: (answer: ArgusEvent) => void; reject: (e: Error) => void } | null;
  /** Another instance took the run over: it stops here without writing another event. */
  abandoned?: boolean;
  /** An answer taken before the controller waited for it (resume-waiting.ts). */
  earlyAnswer?: ArgusEvent;
}

export interface RunSettings {
  limits: RunLimits;
}

/** The run being started, as the agents need to know it. */
export interface RunStart {
  sessionId: string;
  events: readonly ArgusEvent[];
  text: string;
  media: string[];
}

/** What the run manager is built from, in the composition root's order. */
export interface RunManagerDeps extends RunServices {
  db: Db;
  disk: Pick<DiskSpace, "assertRoom">;
  /** The agents of a run being started (see agents/registry.ts). */
  agents: (run: RunStart) => Promise<RunAgents>;
}

/** The controller's options for one attempt of a run: its signal, and waiting on the person's answers in it. */
export function attemptOptions(
  sessionId: string,
  run: ActiveRun,
  o: Pick<ControllerOptions, "limits" | "ask" | "closing">,
): Omit<ControllerOptions, "agents"> {
  return {
    sessionId,
    runId: run.runId,
    signal: run.abort.signal,
    ...o,
    waitForAnswer: (seq, kind) =>
      new Promise<ArgusEvent>((resolve, reject) => {
        if (run.abort.signal.aborted) return reject(new Error("cancelled"));
        const early = takeEarlyAnswer(run, seq);
        if (early) return resolve(early);
        run.waiting = { seq, kind, resolve, reject };
      }),
  };
}

/**
 * Asks the person something from inside a running step of `run`: the question is logged, the run
 * waits for its answer (awaiting_user_input), then goes on running. Resolves with the answer's text
 * and, for a tool review, the person's typed choice.
 */
export async function askInRun(events: EventLog, sessionId: string, run: ActiveRun, question: PersonQuestion, agent: AgentName): Promise<PersonAnswer> {
  const state = (agentState: AgentState) => events.append(sessionId, stateChanged(agentState, "", { runId: run.runId }));
  const asked = (await events.append(sessionId, questionEvent(agent, question, { runId: run.runId }))).event;
  // Waiting before anything more is written: the question is on screen, and
  // an answer that arrives during the next write must find the run waiting.
  const answered = new Promise<ArgusEvent>((resolve, reject) => {
    if (run.abort.signal.aborted) return reject(new Error("cancelled"));
    run.waiting = { seq: asked.id!, kind: question.kind, resolve, reject };
  });
  answered.catch(() => undefined); // awaited below; a cancel meanwhile is not unhandled
  try {
    await state("awaiting_user_input");
    const answer = await answered;
    return "action" in answer && answer.action === "message" ? { text: answer.args.content, choice: answer.args.choice ?? null } : { text: "", choice: null };
  } finally {
    if (!run.abort.signal.aborted) await state("running");
  }
}

/** Stops `run`: its model call is aborted, its cell interrupted, and the answer it waits for fails with `why`. */
export function stopRun(run: ActiveRun, why: string): void {
  run.abort.abort();
  run.waiting?.reject(new Error(why));
  run.waiting = null;
}
